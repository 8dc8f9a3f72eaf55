// New Signal and New Job (search) through n8n-core's PollContext: every new item in exactly one poll, across cycles and restarts.
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { PollTrigger } from '../../harness/in-process/poll.mts';
import { expectExactlyOnce, idsOf, processCycle, serviceCalls, trigger, type CycleEvent } from './setup.mts';

// A reported budget far above use, so the node's pacer follows it rather than the 60/min fallback.
const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

const signalsOf = (group: string) => ({ event: 'newSignal', group, category: '', directOnly: false, activeOnly: false });
const SEARCH_ALL = { event: 'newJob', jobsFrom: 'search' };

describe('poll trigger: exactly once', () => {
	it('every new signal of both groups appears in exactly one poll across 24 cycles, with restarts between polls', async () => {
		let triggers = [trigger(mock, signalsOf('problems')), trigger(mock, signalsOf('changes'))];
		for (const t of triggers) expect((await t.tick()).items).toBeUndefined();
		const events: CycleEvent[] = [];
		const outputs: string[][] = [];
		for (let cycle = 1; cycle <= 24; cycle++) {
			events.push(...(await processCycle(mock)));
			// Some cycles pile up before a poll; every fifth poll runs on a restarted n8n (new context, saved state).
			if (cycle % 3 === 0) continue;
			if (cycle % 5 === 0) triggers = triggers.map((t, i) => trigger(mock, signalsOf(i === 0 ? 'problems' : 'changes'), { state: t.state() }));
			for (const t of triggers) {
				const tick = await t.tick();
				expect(tick.error).toBeUndefined();
				outputs.push(idsOf(tick, 'signal_id'));
			}
		}
		for (const t of triggers) outputs.push(idsOf(await t.tick(), 'signal_id'));
		const expected = events.filter((e) => e.event_type === 'signal').map((e) => String(e.event_data.signal_id));
		expect(expected.length).toBe(24 * 3);
		expectExactlyOnce(outputs, expected);
	});

	it('every job created appears in exactly one poll of a job search across 30 cycles, with restarts; updates and deletions emit nothing', async () => {
		let poller = trigger(mock, SEARCH_ALL);
		expect((await poller.tick()).items).toBeUndefined();
		const events: CycleEvent[] = [];
		const outputs: string[][] = [];
		for (let cycle = 1; cycle <= 30; cycle++) {
			events.push(...(await processCycle(mock)));
			if (cycle % 4 === 0) continue;
			if (cycle % 7 === 0) poller = trigger(mock, SEARCH_ALL, { state: poller.state() });
			const tick = await poller.tick();
			expect(tick.error).toBeUndefined();
			outputs.push(idsOf(tick, 'job_id'));
		}
		outputs.push(idsOf(await poller.tick(), 'job_id'));
		const created = events.filter((e) => e.event_type === 'job_created').map((e) => String(e.event_data.job_id));
		expect(created.length).toBe(30 * 5);
		// A job deleted before the poll that would have found it is not in the list any more: it cannot be emitted.
		const deleted = new Set(events.filter((e) => e.event_type === 'job_deleted').map((e) => String(e.event_data.job_id)));
		const emitted = new Set(outputs.flat());
		const lostToDeletion = created.filter((id) => !emitted.has(id));
		expect(lostToDeletion.every((id) => deleted.has(id))).toBe(true);
		expectExactlyOnce(outputs, created.filter((id) => !lostToDeletion.includes(id)));
	});

	it('an idle poll costs one request; a poll that finds N new items costs ceil((N + seen items of the newest second + 1) / page size)', async () => {
		const poller = trigger(mock, SEARCH_ALL);
		await poller.tick();
		expect(serviceCalls(mock)).toHaveLength(1);
		let from = mock.answers().length;
		expect((await poller.tick()).items).toBeUndefined();
		expect(serviceCalls(mock, from)).toHaveLength(1);
		// One cycle: 5 new jobs on one second; page 1 holds them and the boundary.
		await processCycle(mock);
		from = mock.answers().length;
		expect((await poller.tick()).items).toHaveLength(5);
		expect(serviceCalls(mock, from).map((c) => c.query.get('offset'))).toEqual(['0']);
	});

	it('the first activation emits nothing old; with Include Existing Items it emits every existing item once', async () => {
		const quiet = trigger(mock, signalsOf('changes'));
		expect((await quiet.tick()).items).toBeUndefined();
		expect((await quiet.tick()).items).toBeUndefined();
		const all = trigger(mock, { ...signalsOf('changes'), includeExisting: true });
		const first = await all.tick();
		const expected = mock.service.store.signals.filter((s) => s.info.group === 'changes' && s.source_id !== '').map((s) => s.signal_id);
		expectExactlyOnce([idsOf(first, 'signal_id')], expected);
		expect((await all.tick()).items).toBeUndefined();
	});

	it('"Fetch test event" returns the newest item at once and leaves the state alone', async () => {
		const poller = trigger(mock, SEARCH_ALL);
		const manual = await poller.tick('manual');
		const newest = mock.service.store.jobsOf(mock.service.accounts()[0].account_id)[0].job.job_id;
		expect(idsOf(manual, 'job_id')).toEqual([newest]);
		expect(poller.state()).toBe('{}');
		const signal = await trigger(mock, signalsOf('problems')).tick('manual');
		expect(signal.items).toHaveLength(1);
		expect(serviceCalls(mock).map((c) => c.query.get('per_page'))).toEqual([null, '1']);
	});

	it('changed parameters start afresh (the saved position belongs to the old list)', async () => {
		const problems = trigger(mock, signalsOf('problems'));
		await problems.tick();
		await processCycle(mock);
		const moved = new PollTrigger({
			type: 'n8n-nodes-job-signals.jobSignalsPollTrigger',
			parameters: { ...signalsOf('problems'), directOnly: true },
			credentials: { jobSignalsApi: mock.credentials },
			state: problems.state(),
		});
		expect((await moved.tick()).items).toBeUndefined();
	});
});
