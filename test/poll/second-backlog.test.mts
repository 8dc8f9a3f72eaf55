// A backlog segment inside one created_at second of more jobs than its window holds ids for (the mock's data file):
// offsets and cursors find their place again while new jobs arrive on top (some further than the window reaches) and jobs are deleted.
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { BULK_SOURCE, bulkImport } from '../../harness/in-process/bulk-import.mts';
import { expectExactlyOnce, idsOf, processCycle, trigger, type CycleEvent } from './setup.mts';

/** More jobs on one second than a segment's window holds ids for (4 KB of 17-byte ids: 240). */
const ON_ONE_SECOND = 1_500;
const mock = useMockService({ ...SMALL_MOCK, sources: 0, data: bulkImport(ON_ONE_SECOND, 100), rateLimit: 1_000_000 });

const allJobIds = () => mock.service.store.jobsOf(mock.service.accounts()[0].account_id).map((j) => j.job.job_id);

describe('poll trigger: a backlog inside one second larger than its window', () => {
	for (const [list, parameters] of [
		['job search (offsets)', { event: 'newJob', jobsFrom: 'search', includeExisting: true }],
		['one source (cursors)', { event: 'newJob', jobsFrom: 'source', source: { __rl: true, mode: 'id', value: BULK_SOURCE.source_id }, includeExisting: true }],
	] as const) {
		it(`${list}, one page a poll: each job once while new jobs arrive on top, 400 at once twice, and jobs are deleted`, async () => {
			const existing = allJobIds();
			const poller = trigger(mock, parameters, { budgetMs: 1 });
			const events: CycleEvent[] = [];
			const outputs: string[][] = [];
			for (let poll = 0; poll < 60; poll++) {
				// Every third poll a cycle (5 new jobs on top, 2 deleted anywhere); at polls 7 and 13, 400 new jobs on top at once.
				if (poll % 3 === 2) events.push(...(await processCycle(mock)));
				if (poll === 7 || poll === 13) events.push(...(await mock.service.processCycle({ created: 400, updated: 0, deleted: 0, signals: 0 })));
				const tick = await poller.tick();
				expect(tick.error).toBeUndefined();
				outputs.push(idsOf(tick, 'job_id'));
			}
			expect(JSON.parse(poller.state()).pollState.backlog).toEqual([]);
			const created = events.filter((e) => e.event_type === 'job_created').map((e) => String(e.event_data.job_id));
			const deleted = new Set(events.filter((e) => e.event_type === 'job_deleted').map((e) => String(e.event_data.job_id)));
			const emitted = new Set(outputs.flat());
			// A job deleted before a poll reached it cannot come out; every other one comes out exactly once.
			const all = [...existing, ...created];
			expect(all.filter((id) => !emitted.has(id) && !deleted.has(id))).toEqual([]);
			expectExactlyOnce(outputs, all.filter((id) => emitted.has(id)));
		}, 120_000);
	}
});
