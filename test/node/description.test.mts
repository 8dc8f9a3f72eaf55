// What n8n and its AI agents read from the node: the description, the option lists, the collection picker.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../harness/n8n/config.mts';
import { SIGNAL_CATEGORIES } from '../../contract/hierarchy';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { listSearch, loadOptions } from '../../harness/in-process/load-options.mts';
import { loadPackages } from '../../harness/in-process/packages.mts';
import { api, NODE_TYPE } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

describe('node description', () => {
	it('is usable as a tool, and every operation of every resource has an action text', async () => {
		const packages = await loadPackages();
		const { description } = packages.nodeTypes.getByNameAndVersion(NODE_TYPE, 1);
		expect(description.usableAsTool).toBe(true);
		// Deduplication calls no service: the editor asks for no credential there.
		expect(description.credentials).toEqual([{ name: 'jobSignalsApi', required: true, testedBy: 'jobSignalsApiTest', displayOptions: { hide: { resource: ['deduplication'] } } }]);
		// What the loaded node offers is what the operation files say: a folder per resource, a file per operation.
		const actions = join(REPO_ROOT, 'nodes/JobSignals/actions');
		const files = readdirSync(actions, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.operation.ts'));
		const fromFiles = files.map((file) => file.replace(/\.operation\.ts$/, '')).sort();
		expect(fromFiles.length).toBeGreaterThanOrEqual(9);
		const resources = description.properties.find((p) => p.name === 'resource')!.options!.map((o) => (o as { value: string }).value);
		expect(resources.sort()).toEqual([...new Set(fromFiles.map((file) => file.split('/')[0]))].sort());
		const operations = description.properties.filter((p) => p.name === 'operation');
		expect(operations).toHaveLength(resources.length);
		const offered = operations.flatMap((p) => (p.options as { value: string }[]).map((o) => `${p.displayOptions!.show!.resource![0] as string}/${o.value}`));
		expect(offered.sort()).toEqual(fromFiles);
		for (const option of operations.flatMap((p) => p.options as { action?: string }[])) expect(option.action).toMatch(/^[A-Z]/);
	});
});

describe('option lists', () => {
	it('categories follow the group, types follow the category, each with an "all" choice', async () => {
		for (const group of ['problems', 'changes']) {
			const categories = await loadOptions({ type: NODE_TYPE, method: 'getSignalCategories', parameters: { resource: 'signal', operation: 'getAll', group } });
			expect(categories.map((o) => o.value)).toEqual(['', ...SIGNAL_CATEGORIES.filter((c) => c.group === group).map((c) => c.id)]);
		}
		const types = await loadOptions({
			type: NODE_TYPE,
			method: 'getSignalTypes',
			parameters: { resource: 'signal', operation: 'getAll', group: 'changes', category: 'tech' },
		});
		expect(types.map((o) => o.value)).toEqual(['', 'tech-change-planned', 'tech-change-completed']);
	});

	it('the collection picker lists the account\'s collections and filters by what is typed', async () => {
		const { data } = (await api('/collections')) as { data: { collection_id: string; name: string }[] };
		const call = { type: NODE_TYPE, method: 'searchCollections', parameters: { resource: 'source', operation: 'getAllInCollection' }, credentials: { jobSignalsApi: mock.credentials } };
		const all = await listSearch(call);
		// Sorted by name (test/node/editor-polish.test.mts checks the order).
		expect(all.results).toEqual(data.map((c) => ({ name: c.name, value: c.collection_id })).sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' })));
		const needle = data[1].name.slice(0, 5).toUpperCase();
		const some = await listSearch({ ...call, filter: needle });
		expect(some.results).toEqual(all.results.filter((r) => r.name.toUpperCase().includes(needle)));
		expect(some.results.length).toBeGreaterThan(0);
		expect(some.results.length).toBeLessThan(all.results.length);
	});
});
