// A poll time that comes while the last poll still runs (n8n's in-memory scheduler starts one at every poll time): its items come out once.
// Found by the real-n8n e2e test (test/e2e/poll-trigger.e2e.test.mts): an answer slower than the poll interval made two polls emit the same signals.
import { describe, expect, it, vi } from 'vitest';
import { WINDOW_MS } from '../../nodes/JobSignalsPollTrigger/recent-hand-offs';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { setFaults } from '../node/direct.mts';
import { expectExactlyOnce, idsOf, processCycle, serviceCalls, trigger } from './setup.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

const PROBLEMS = { event: 'newSignal', group: 'problems', category: '', directOnly: false, activeOnly: false };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('poll trigger: overlapping polls', () => {
	it('a poll that starts while a slow one still runs emits nothing and keeps the position; the slow one emits every item once', async () => {
		const poller = trigger(mock, PROBLEMS);
		expect((await poller.tick()).items).toBeUndefined();
		const expected = problemSignals(await processCycle(mock));
		// The next answer is held 1.5 s; the second poll starts while the first waits for it.
		await setFaults([{ path: '/v2/signals/problems', latency_ms: 1500, times: 1 }]);
		const from = mock.answers().length;
		const slow = poller.tick();
		await pause(300);
		const meanwhile = await poller.tick();
		const late = await slow;
		expect(meanwhile.error).toBeUndefined();
		expect(late.error).toBeUndefined();
		expect(idsOf(meanwhile, 'signal_id')).toEqual([]);
		expectExactlyOnce([idsOf(meanwhile, 'signal_id'), idsOf(late, 'signal_id')], expected);
		// The skipped poll sent no request: only the slow one's page.
		expect(serviceCalls(mock, from)).toHaveLength(1);

		// The trigger polls on as before: nothing again, then the next cycle's items once.
		expect((await poller.tick()).items).toBeUndefined();
		const next = problemSignals(await processCycle(mock));
		expectExactlyOnce([idsOf(await poller.tick(), 'signal_id')], next);
	});

	it('a poll that failed releases the trigger: the next poll runs and emits', async () => {
		const poller = trigger(mock, PROBLEMS);
		await poller.tick();
		const expected = problemSignals(await processCycle(mock));
		await setFaults([{ path: '/v2/signals/problems', body: 'html', times: 1 }]);
		expect((await poller.tick()).error).toBeDefined();
		expectExactlyOnce([idsOf(await poller.tick(), 'signal_id')], expected);
	});

	/**
	 * n8n saves the position after poll() returns, with the hand-off; a poll that starts before that lands reads the old
	 * position. Seen in a real n8n with durable poll cursors after a restart: its activation poll and the first
	 * scheduled poll emitted the same jobs (test/e2e/poll-trigger-durable.e2e.test.mts).
	 */
	it('a poll that reads the position before the last hand-off was saved emits nothing; once saved, nothing comes again', async () => {
		const poller = trigger(mock, PROBLEMS);
		await poller.tick();
		const expected = problemSignals(await processCycle(mock));
		poller.holdHandOffCommit();
		const first = await poller.tick();
		const early = await poller.tick();
		poller.landHeldCommit();
		const after = await poller.tick();
		expect([first.error, early.error, after.error]).toEqual([undefined, undefined, undefined]);
		expect(early.items).toBeUndefined();
		expectExactlyOnce([idsOf(first, 'signal_id'), idsOf(early, 'signal_id'), idsOf(after, 'signal_id')], expected);
	});

	it('a hand-off whose save never lands: its items come out again once the window has passed, not lost', async () => {
		const poller = trigger(mock, PROBLEMS);
		await poller.tick();
		const expected = problemSignals(await processCycle(mock));
		poller.holdHandOffCommit();
		const lost = await poller.tick();
		expect(idsOf(lost, 'signal_id').sort()).toEqual([...expected].sort());
		expect((await poller.tick()).items).toBeUndefined();
		vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + WINDOW_MS });
		try {
			expectExactlyOnce([idsOf(await poller.tick(), 'signal_id')], expected);
		} finally {
			vi.useRealTimers();
		}
	});
});

/** The cycle's new signals of the group the trigger follows (at least one, or the test would show nothing). */
function problemSignals(events: Awaited<ReturnType<typeof processCycle>>): string[] {
	const ids = events.filter((e) => e.event_type === 'signal' && (e.event_data.info as { group: string }).group === 'problems').map((e) => String(e.event_data.signal_id));
	expect(ids.length).toBeGreaterThan(0);
	return ids;
}
