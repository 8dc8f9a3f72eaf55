// Source → Get Many in Collection's Options (Include Totals, Start At Cursor) with collections of over one page.
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { allByCursor, api, NODE_TYPE } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, sources: 1500, rateLimit: 1_000_000 });

type Json = Record<string, unknown>;

const run = (parameters: INodeParameters) =>
	runNode({ type: NODE_TYPE, parameters: { output: 'raw', ...parameters }, credentials: { jobSignalsApi: mock.credentials } });

describe('Source → Get Many in Collection options', () => {
	it('Source → Get Many in Collection reports metrics.count_sources and resumes by cursor', async () => {
		const { data } = await api('/collections');
		const collection = (data as Json[]).sort((a, b) => (b.count_sources as number) - (a.count_sources as number))[0];
		const all = await allByCursor(`/collections/${String(collection.collection_id)}/sources`, 'cursor_source_id');
		expect(all.length).toBeGreaterThan(100);
		const base = { resource: 'source', operation: 'getAllInCollection', collection: { __rl: true, mode: 'id', value: String(collection.collection_id) } };
		const first = await run({ ...base, returnAll: false, limit: 100, options: { includeTotals: true } });
		const head = first.items[0].json as { totals: Json; resume_at: { cursor: string } };
		expect(head.totals).toEqual({ count_sources: all.length });
		const rest = await run({ ...base, returnAll: true, options: { startCursor: head.resume_at.cursor } });
		expect(rest.items.map((i) => i.json)).toEqual(all.slice(100));
	});
});
