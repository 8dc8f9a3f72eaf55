// Source → Get, Source → Get Many in Collection, Collection → Get Many through n8n-core's engine.
import { describe, expect, it } from 'vitest';
import { SECOND_ACCOUNT_TOKEN } from 'job-signals-mock-server';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { allByCursor, api, NODE_TYPE } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, sources: 1500, rateLimit: 1_000_000 });

const run = (resource: string, operation: string, parameters: Record<string, unknown>, token?: string) =>
	runNode({
		type: NODE_TYPE,
		parameters: { resource, operation, output: 'raw', ...parameters },
		credentials: { jobSignalsApi: token ? { ...mock.credentials, apiToken: token } : mock.credentials },
	});

const biggestCollection = async () => {
	const { data } = await api('/collections');
	return (data as { collection_id: string; count_sources: number }[]).sort((a, b) => b.count_sources - a.count_sources)[0];
};

describe('Source → Get', () => {
	it('by domain and by ID return the same record the API returns', async () => {
		const collection = await biggestCollection();
		const [source] = (await api(`/collections/${collection.collection_id}/sources`)).data as { source_id: string; url_source: string }[];
		const byDomain = await run('source', 'get', { source: { __rl: true, mode: 'domain', value: source.url_source } });
		const byId = await run('source', 'get', { source: { __rl: true, mode: 'id', value: source.source_id } });
		expect(byDomain.items.map((i) => i.json)).toEqual([source]);
		expect(byId.items.map((i) => i.json)).toEqual([source]);
	});

	it('an unknown domain says which, and what to do next', async () => {
		const result = await run('source', 'get', { source: { __rl: true, mode: 'domain', value: 'nobody.example' } });
		expect(result.error?.message).toBe('The service tracks no company with the domain nobody.example');
		expect(result.error?.description).toMatch(/^Give the company's main website domain .* switch Source to By ID\.$/);
	});
});

describe('Collection → Get Many', () => {
	it('returns the account\'s collections, one item each; Limit cuts the list', async () => {
		const all = await run('collection', 'getAll', { returnAll: true });
		expect(all.items.map((i) => i.json)).toEqual((await api('/collections')).data);
		const one = await run('collection', 'getAll', { returnAll: false, limit: 1 });
		expect(one.items).toHaveLength(1);
	});

	it('each account sees its own collections', async () => {
		const second = await run('collection', 'getAll', { returnAll: true }, SECOND_ACCOUNT_TOKEN);
		expect(second.items.map((i) => i.json)).toEqual((await api('/collections', {}, SECOND_ACCOUNT_TOKEN)).data);
		const demo = await run('collection', 'getAll', { returnAll: true });
		const ids = (items: typeof demo.items) => items.map((i) => i.json.collection_id);
		expect(ids(second.items).some((id) => ids(demo.items).includes(id))).toBe(false);
	});
});

describe('Source → Get Many in Collection', () => {
	it('Return All follows the cursor and matches the API record for record', async () => {
		const collection = await biggestCollection();
		const before = mock.requests().length;
		const result = await run('source', 'getAllInCollection', { collection: { __rl: true, mode: 'id', value: collection.collection_id }, returnAll: true });
		const calls = mock.requests().length - before;
		const expected = await allByCursor(`/collections/${collection.collection_id}/sources`, 'cursor_source_id');
		expect(collection.count_sources).toBeGreaterThan(100);
		expect(expected).toHaveLength(collection.count_sources);
		expect(result.items.map((i) => i.json)).toEqual(expected);
		expect(calls).toBe(Math.ceil(expected.length / 100));
	});

	it('the list mode\'s value works the same; Limit stops early', async () => {
		const collection = await biggestCollection();
		const before = mock.requests().length;
		const result = await run('source', 'getAllInCollection', { collection: { __rl: true, mode: 'list', value: collection.collection_id }, returnAll: false, limit: 5 });
		expect(result.items).toHaveLength(5);
		expect(mock.requests().length - before).toBe(1);
	});

	it('another account\'s collection is not found; an empty one is refused', async () => {
		const result = await run('source', 'getAllInCollection', { collection: { __rl: true, mode: 'id', value: 'col_second_1' }, returnAll: true });
		expect(result.error?.message).toBe('No collection with id "col_second_1"');
		// An expression that resolves to nothing (the editor itself refuses a blank field).
		const empty = await run('source', 'getAllInCollection', { collection: { __rl: true, mode: 'id', value: '={{ $json.missing }}' }, returnAll: true });
		expect(empty.error?.message).toBe('Collection is required: pick one from the list or give its ID');
	});
});
