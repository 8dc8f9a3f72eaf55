// The Options collection of list operations (Include Totals, Start At, Page Size, Minimum Severity / Match) through n8n-core's engine.
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { allByCursor, allSearched, allSignals, NODE_TYPE } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

type Json = Record<string, unknown>;

const run = (parameters: INodeParameters) =>
	runNode({ type: NODE_TYPE, parameters: { output: 'raw', ...parameters }, credentials: { jobSignalsApi: mock.credentials } });

/** The calls since `from` (the direct walks that build the expectations go through the mock too). */
const queriesSince = (from: number) => mock.requests().slice(from).map((r) => new URL(r.url));
const jsonOf = (items: { json: Json }[]) => items.map((i) => i.json);

describe('Signal → Get Many options', () => {
	const signals = { resource: 'signal', operation: 'getAll', group: 'problems', directOnly: false, activeOnly: false };

	it('Include Totals adds one item first with the pagination object, from the same call; Start At Page resumes there', async () => {
		const all = await allSignals('/signals/problems', { direct_only: false, active_only: false });
		const before = mock.requests().length;
		const first = await run({ ...signals, returnAll: false, limit: 30, options: { includeTotals: true } });
		expect(first.error).toBeUndefined();
		expect(queriesSince(before)).toHaveLength(1);
		expect(first.items).toHaveLength(31);
		expect(first.items[0].json).toEqual({
			totals: expect.objectContaining({ page: 1, per_page: 30, count_signals: all.length, count_pages: Math.ceil(all.length / 30), has_next: true }),
			resume_at: { page: 2 },
		});
		expect(jsonOf(first.items.slice(1))).toEqual(all.slice(0, 30));
		for (const item of first.items) expect(item.pairedItem).toEqual({ item: 0 });

		const resumed = await run({ ...signals, returnAll: false, limit: 30, options: { includeTotals: true, startPage: 2, pageSize: 30 } });
		expect(jsonOf(resumed.items.slice(1))).toEqual(all.slice(30, 60));
		expect(resumed.items[0].json.resume_at).toEqual({ page: 3 });
		const cut = await run({ ...signals, returnAll: false, limit: 45, options: { includeTotals: true, pageSize: 30 } });
		expect(cut.items[0].json.resume_at).toEqual({ page: 2, returned: 15 });
		expect(jsonOf(cut.items.slice(1))).toEqual(all.slice(0, 45));
	});

	it('Return All from a later page ends at the last page without a false total error and without resume_at', async () => {
		const all = await allSignals('/signals/problems', { direct_only: false, active_only: false });
		const rest = await run({ ...signals, returnAll: true, options: { includeTotals: true, startPage: 3, pageSize: 500 } });
		expect(rest.error).toBeUndefined();
		expect(rest.items[0].json.resume_at).toBeUndefined();
		expect(jsonOf(rest.items.slice(1))).toEqual(all.slice(1000));
		const past = await run({ ...signals, returnAll: true, options: { startPage: 99, pageSize: 1000 } });
		expect(past.error).toBeUndefined();
		expect(past.items).toHaveLength(0);
	});

	it('Minimum Severity and Minimum Match filter in the node and Limit counts only what is kept', async () => {
		const all = await allSignals('/signals/problems', { direct_only: false, active_only: false });
		const wanted = all.filter((s) => (s.signal_severity as number) >= 3 && (s.signal_match as number) >= 2);
		expect(wanted.length).toBeGreaterThan(40);
		expect(wanted.length).toBeLessThan(all.length);
		const before = mock.requests().length;
		const result = await run({ ...signals, returnAll: false, limit: 40, options: { minSeverity: 3, minMatch: 2 } });
		expect(jsonOf(result.items)).toEqual(wanted.slice(0, 40));
		expect(queriesSince(before)[0].searchParams.get('per_page')).toBe('1000');
		const everything = await run({ ...signals, returnAll: true, options: { minSeverity: 3, minMatch: 2 } });
		expect(jsonOf(everything.items)).toEqual(wanted);
	});

	it('a Page Size outside 1–1000 is a clear error before any call', async () => {
		const big = await run({ ...signals, returnAll: true, options: { pageSize: 1001 } });
		expect(big.error?.message).toBe('Page Size is at most 1000, got 1001');
		const zero = await run({ ...signals, returnAll: true, options: { startPage: 0 } });
		expect(zero.error?.message).toBe('Start At Page must be a whole number of at least 1, got 0');
		expect(mock.requests()).toHaveLength(0);
	});
});

describe('Job → Search options', () => {
	it('Include Totals gives metrics.count_jobs; Start At Offset resumes at any item, also inside a page', async () => {
		const all = await allSearched({ search: 'engineer' });
		expect(all.length).toBeGreaterThan(250);
		const first = await run({ resource: 'job', operation: 'search', search: 'engineer', returnAll: false, limit: 130, options: { includeTotals: true } });
		expect(first.items[0].json).toEqual({ totals: expect.objectContaining({ count_jobs: all.length }), resume_at: { offset: 130 } });
		expect(jsonOf(first.items.slice(1))).toEqual(all.slice(0, 130));
		const resumed = await run({ resource: 'job', operation: 'search', search: 'engineer', returnAll: true, options: { includeTotals: true, startOffset: 130 } });
		expect(resumed.error).toBeUndefined();
		expect(resumed.items[0].json.resume_at).toBeUndefined();
		expect(jsonOf(resumed.items.slice(1))).toEqual(all.slice(130));
	});
});

describe('Job → Get Many for Source options', () => {
	it('Job → Get Many for Source resumes at the cursor of an earlier run, to the end', async () => {
		const { store } = mock.service;
		const demo = store.accountList()[0];
		let busiest: { domain: string; jobs: Json[] } = { domain: '', jobs: [] };
		for (const source of [...store.sources.values()].filter((s) => store.tracks(demo.account_id, s.source_id))) {
			if ((store.jobsBySource.get(source.source_id)?.length ?? 0) <= busiest.jobs.length) continue;
			busiest = { domain: source.url_source, jobs: await allByCursor(`/sources/${source.url_source}/jobs`, 'cursor_job_id') };
		}
		expect(busiest.jobs.length).toBeGreaterThan(100);
		const base = { resource: 'job', operation: 'getAllForSource', source: { __rl: true, mode: 'domain', value: busiest.domain } };
		const first = await run({ ...base, returnAll: false, limit: 100, options: { includeTotals: true } });
		const head = first.items[0].json as { totals: Json; resume_at: { cursor: string } };
		expect(head.totals).toEqual(expect.objectContaining({ count_jobs: busiest.jobs.length }));
		expect(typeof head.resume_at.cursor).toBe('string');
		const rest = await run({ ...base, returnAll: true, options: { includeTotals: true, startCursor: head.resume_at.cursor } });
		expect(rest.error).toBeUndefined();
		expect(rest.items[0].json.resume_at).toBeUndefined();
		expect(jsonOf(rest.items.slice(1))).toEqual(busiest.jobs.slice(100));
	});

});
