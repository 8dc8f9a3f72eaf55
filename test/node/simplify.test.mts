// Simplify (node version 2: saved workflows keep these shapes) on every operation that returns signals, jobs or sources, through n8n-core's engine.
import { describe, expect, it } from 'vitest';
import { signalTypeName } from '../../contract/hierarchy';
import { aSource, useActionNode } from './action-node.mts';
import { allSignals, api } from './direct.mts';
import { iso, SIMPLIFY_V2 } from './expected-shapes.mts';

type Json = Record<string, unknown>;

const run = useActionNode(2);

describe('Simplify (version 2)', () => {
	it('is on by default in version 2 and gives a signal its flat, documented shape', async () => {
		const raw = (await allSignals('/signals/changes', { direct_only: true, active_only: true })).slice(0, 20);
		const result = await run({ resource: 'signal', operation: 'getAll', group: 'changes', returnAll: false, limit: 20 });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(20);
		result.items.forEach((item, i) => {
			const signal = raw[i];
			const info = signal.info as Json;
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json).toEqual({
				...SIMPLIFY_V2.signal(signal),
				group: 'changes',
				category_name: expect.any(String),
				type_name: signalTypeName(info.type as string),
				classification: 'direct',
				recency: 'active',
			});
		});
		const names = new Set(result.items.map((i) => `${String(i.json.category)}=${String(i.json.category_name)}`));
		for (const name of names) expect(['url=URL', 'content=Content', 'tech=Tech', 'location=Location']).toContain(name);
		expect(signalTypeName('domain-url-change')).toBe('Domain URL Change');
		expect(signalTypeName('cash-flow-constraints')).toBe('Cash Flow Constraints');
	});

	it('off returns the service\'s objects unchanged; version 1 nodes stay raw without the option', async () => {
		const raw = (await allSignals('/signals/problems', { direct_only: true, active_only: true })).slice(0, 5);
		const off = await run({ resource: 'signal', operation: 'getAll', group: 'problems', returnAll: false, limit: 5, simple: false });
		expect(off.items.map((i) => i.json)).toEqual(raw);
		const v1 = await run({ resource: 'signal', operation: 'getAll', group: 'problems', returnAll: false, limit: 5 }, 1);
		expect(v1.items.map((i) => i.json)).toEqual(raw);
	});

	it('flattens jobs from Get, Get Many for Source and Search alike', async () => {
		const { source } = await aSource();
		const raw = ((await api(`/sources/${String(source.url_source)}/jobs`)).data as Json[]).slice(0, 3);
		const expected = raw.map(SIMPLIFY_V2.job);
		const bySource = await run({ resource: 'job', operation: 'getAllForSource', source: { __rl: true, mode: 'id', value: String(source.source_id) }, returnAll: false, limit: 3 });
		expect(bySource.items.map((i) => i.json)).toEqual(expected);
		const one = await run({ resource: 'job', operation: 'get', jobId: String(raw[0].job_id) });
		expect(one.items.map((i) => i.json)).toEqual([expected[0]]);
		const searched = await run({ resource: 'job', operation: 'search', returnAll: false, limit: 4 });
		const rawSearched = ((await api('/jobs')).data as Json[]).slice(0, 4);
		expect(searched.items.map((i) => i.json.job_id)).toEqual(rawSearched.map((j) => j.job_id));
		expect(searched.items.map((i) => i.json.updated_at_iso)).toEqual(rawSearched.map((j) => iso(j.updated_at)));
	});

	it('flattens sources from Get and Get Many in Collection', async () => {
		const { collectionId, source } = await aSource();
		const expected = SIMPLIFY_V2.source(source);
		const one = await run({ resource: 'source', operation: 'get', source: { __rl: true, mode: 'domain', value: String(source.url_source) } });
		expect(one.items.map((i) => i.json)).toEqual([expected]);
		const many = await run({ resource: 'source', operation: 'getAllInCollection', collection: { __rl: true, mode: 'id', value: collectionId }, returnAll: false, limit: 1 });
		expect(many.items.map((i) => i.json)).toEqual([expected]);
	});
});
