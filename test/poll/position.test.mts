// The position: ties on one second, late items with an older created_at, and a backlog larger than one poll's budget.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import type { StoredJob } from 'job-signals-mock-server';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { setFaults } from '../node/direct.mts';
import { expectExactlyOnce, idsOf, processCycle, serviceCalls, trigger, type CycleEvent } from './setup.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

const SEARCH_ALL = { event: 'newJob', jobsFrom: 'search' };
const accountJobs = () => mock.service.store.jobsOf(mock.service.accounts()[0].account_id);

/** A job added straight to the mock's store, with the created_at a test needs. */
function addJob(id: string, createdAt: number): string {
	const base = accountJobs()[0];
	const job: StoredJob = { ...base, job: { ...base.job, job_id: id, created_at: createdAt, updated_at: createdAt } };
	mock.service.store.addJob(job);
	return id;
}

/** `count` jobs, five per second, on the seconds after `after`, newest last; their ids. */
function addJobs(prefix: string, after: number, count: number): string[] {
	return Array.from({ length: count }, (_, i) => addJob(`${prefix}_${String(i).padStart(4, '0')}`, after + 1 + Math.floor(i / 5)));
}

describe('poll trigger: position', () => {
	it('items that arrive later on the newest second already seen are new, whatever their ids (ties)', async () => {
		const poller = trigger(mock, SEARCH_ALL);
		await poller.tick();
		const newest = accountJobs()[0].job;
		// Ids on both sides of the one already seen: the service's order within a second is not relied on.
		const ties = [addJob(`${newest.job_id}a`, newest.created_at), addJob('job_0000000_tie', newest.created_at)];
		expect(idsOf(await poller.tick(), 'job_id').sort()).toEqual(ties.sort());
		expect((await poller.tick()).items).toBeUndefined();
	});

	it('more items on one second than a page holds are all emitted once', async () => {
		const poller = trigger(mock, SEARCH_ALL);
		await poller.tick();
		const second = accountJobs()[0].job.created_at + 10;
		const added = Array.from({ length: 150 }, (_, i) => addJob(`job_same_second_${String(i).padStart(3, '0')}`, second));
		const outputs = [idsOf(await poller.tick(), 'job_id'), idsOf(await poller.tick(), 'job_id')];
		expectExactlyOnce(outputs, added);
		// The newest second fills page 1, so an idle poll reads on until an older item: 2 requests here, not 1.
		const from = mock.answers().length;
		await poller.tick();
		expect(serviceCalls(mock, from)).toHaveLength(2);
	});

	it('a late item (created_at older than items already seen, the first-scrape exception) is emitted once if it falls within the first page seen', async () => {
		const poller = trigger(mock, SEARCH_ALL);
		await poller.tick();
		const jobs = accountJobs();
		const late = addJob('job_late_within_page', jobs[50].job.created_at - 1);
		const tooLate = addJob('job_late_beyond_page', jobs[jobs.length - 1].job.created_at);
		await processCycle(mock);
		const tick = await poller.tick();
		expect(idsOf(tick, 'job_id')).toContain(late);
		// Documented limit (README): older than everything the last poll read, it reads as already seen.
		expect(idsOf(tick, 'job_id')).not.toContain(tooLate);
		expect((await poller.tick()).items).toBeUndefined();
	});

	it('a backlog larger than one poll\'s budget is emitted over several polls, newest first, once, while cycles and restarts go on', async () => {
		// A budget of 1 ms: every walk stops after the page it must read.
		let poller = trigger(mock, SEARCH_ALL, { budgetMs: 1 });
		await poller.tick();
		const events: CycleEvent[] = [];
		for (let i = 0; i < 50; i++) events.push(...(await processCycle(mock)));
		const outputs: string[][] = [];
		const first = await poller.tick();
		expect(first.items).toHaveLength(100);
		outputs.push(idsOf(first, 'job_id'));
		for (let poll = 1; poll <= 12; poll++) {
			if (poll % 3 === 0) events.push(...(await processCycle(mock)));
			if (poll % 4 === 0) poller = trigger(mock, SEARCH_ALL, { state: poller.state(), budgetMs: 1 });
			const tick = await poller.tick();
			expect(tick.error).toBeUndefined();
			outputs.push(idsOf(tick, 'job_id'));
		}
		const created = events.filter((e) => e.event_type === 'job_created').map((e) => String(e.event_data.job_id));
		const deleted = new Set(events.filter((e) => e.event_type === 'job_deleted').map((e) => String(e.event_data.job_id)));
		const emitted = new Set(outputs.flat());
		expect(created.filter((id) => !emitted.has(id) && !deleted.has(id))).toEqual([]);
		expectExactlyOnce(outputs, created.filter((id) => emitted.has(id)));
		expect(JSON.parse(poller.state()).pollState.backlog).toEqual([]);
	});

	it('a backlog whose stored offset moved up (items above it deleted) is resumed without losing items', async () => {
		const poller = trigger(mock, SEARCH_ALL, { budgetMs: 1 });
		await poller.tick();
		const seen = accountJobs()[0].job.created_at;
		for (let i = 0; i < 40; i++) await processCycle(mock);
		const pending = accountJobs()
			.filter((j) => j.job.created_at > seen)
			.map((j) => j.job.job_id);
		expect(pending.length).toBeGreaterThan(150);
		const first = idsOf(await poller.tick(), 'job_id');
		expect(first).toEqual(pending.slice(0, 100));
		// Three of the emitted jobs go: the list moves up by three under the stored offset 100.
		for (const id of first.slice(10, 13)) mock.service.store.removeJob(id);
		const outputs = [first];
		for (let poll = 0; poll < 3; poll++) outputs.push(idsOf(await poller.tick(), 'job_id'));
		expectExactlyOnce(outputs, pending);
	});

	it('Include Existing Items with a small budget drains the whole list over several polls', async () => {
		const poller = trigger(mock, { event: 'newSignal', group: 'problems', category: 'it', directOnly: false, activeOnly: false, includeExisting: true }, { budgetMs: 1 });
		const expected = mock.service.store.signals.filter((s) => s.info.category === 'it').map((s) => s.signal_id);
		const outputs: string[][] = [];
		for (let poll = 0; poll < 5; poll++) outputs.push(idsOf(await poller.tick(), 'signal_id'));
		expectExactlyOnce(outputs, expected);
		const state = JSON.parse(poller.state()) as { pollState: IDataObject };
		expect(state.pollState.backlog).toEqual([]);
	});

	it('while a backlog is pending, new items on top, a slow backlog page and a late item inside the backlog\'s part of the list: each item once', async () => {
		const activated = trigger(mock, SEARCH_ALL, { budgetMs: 1 });
		await activated.tick();
		const base = accountJobs()[0].job.created_at;
		const first = addJobs('job_first', base, 250);
		const outputs = [idsOf(await activated.tick(), 'job_id')];
		expect(outputs[0]).toHaveLength(100);
		// Restarted with a 3 s budget: the top walk reads its two pages, then one slow backlog page spends the budget.
		const second = addJobs('job_second', base + 100, 150);
		await setFaults([{ path: '/v2/jobs', latency_ms: 1500, after: 2, times: 1 }]);
		const poller = trigger(mock, SEARCH_ALL, { state: activated.state(), budgetMs: 3000 });
		outputs.push(idsOf(await poller.tick(), 'job_id'));
		expect(JSON.parse(poller.state()).pollState.backlog).toHaveLength(1);
		// A late job inside the part of the list the backlog still holds (first batch, below what poll 1 emitted); more new jobs on top.
		const late = addJob('job_late_in_backlog', base + 20);
		const third = addJobs('job_third', base + 200, 120);
		const limited = trigger(mock, SEARCH_ALL, { state: poller.state(), budgetMs: 1 });
		for (let poll = 0; poll < 6; poll++) outputs.push(idsOf(await limited.tick(), 'job_id'));
		expectExactlyOnce(outputs, [...first, ...second, late, ...third]);
	});
});
