// A cycle of the allowed maximum (1,000 changes of each kind) gives the event loop up between slices of its
// record writes, and is still atomic as the API sees it. Counted, not timed: the same on an idle and a busy machine.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MOCK_CONTROL_PATHS, jobSearchEnvelopeSchema, WEBHOOK_EVENT_TYPES } from '../src/base/contract.mts';
import { WRITES_PER_TURN } from '../src/data/data-gate.mts';
import { STEPS_PER_TURN, Work } from '../src/base/work.mts';
import { APP_URL, call, ok, useMock } from './harness.mts';

const mock = useMock();

afterEach(() => {
	vi.restoreAllMocks();
});

const BIGGEST = { created: 1000, updated: 1000, deleted: 1000, signals: 1000, domain_changes: 1000 };

/** Counts the store's record writes (each bumps its version), per turn of the event loop, from now until stop(). */
function writesPerTurn(): { stop(): number[] } {
	const { store } = mock.service;
	let writes = 0;
	for (const method of ['addJob', 'replaceJob', 'removeJob', 'putSignal', 'removeSignal', 'replaceSource'] as const) {
		const original = store[method].bind(store) as (...args: unknown[]) => void;
		vi.spyOn(store, method).mockImplementation(((...args: unknown[]) => {
			writes++;
			original(...args);
		}) as never);
	}
	const perTurn: number[] = [];
	let ticking = true;
	// One tick per turn of the loop: the writes between two ticks ran without a break.
	const tick = () => {
		perTurn.push(writes);
		writes = 0;
		if (ticking) setImmediate(tick);
	};
	setImmediate(tick);
	return {
		stop() {
			ticking = false;
			perTurn.push(writes);
			return perTurn;
		},
	};
}

describe('a cycle gives the event loop up in slices', () => {
	it('POST /__mock/process with 1,000 changes of each kind: no turn makes more than its share of record writes', async () => {
		const counter = writesPerTurn();
		const answer = await call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST', body: BIGGEST });
		const perTurn = counter.stop();
		expect(answer.status).toBe(200);
		const total = perTurn.reduce((sum, n) => sum + n, 0);
		// At least one write per change asked for (a domain move writes each of its source's jobs too).
		expect(total).toBeGreaterThan(5000);
		// A change is counted once it is made: a turn may end one change past its share (a job created and its source's count).
		expect(Math.max(...perTurn)).toBeLessThanOrEqual(WRITES_PER_TURN + 1);
		expect(perTurn.filter((n) => n > 0).length).toBeGreaterThan(total / (WRITES_PER_TURN + 1) - 1);
	});

	it('all its counted work (writes, the job list copied, the answer\'s JSON) stays within a turn\'s share', async () => {
		const spend = Work.prototype.spend;
		let steps = 0;
		let largest = 0;
		vi.spyOn(Work.prototype, 'spend').mockImplementation(function (this: Work, n: number) {
			steps += n;
			largest = Math.max(largest, n);
			return spend.call(this, n);
		});
		const perTurn: number[] = [];
		let ticking = true;
		const tick = () => {
			perTurn.push(steps);
			steps = 0;
			if (ticking) setImmediate(tick);
		};
		setImmediate(tick);
		const answer = await call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST', body: BIGGEST });
		ticking = false;
		expect(answer.status).toBe(200);
		expect((answer.json as { events: unknown[] }).events.length).toBeGreaterThan(5000);
		// A turn ends once its share is spent: at most the share, plus the one spend that passed it.
		expect(Math.max(...perTurn)).toBeLessThanOrEqual(STEPS_PER_TURN + largest);
		expect(largest).toBeLessThanOrEqual(STEPS_PER_TURN / 4);
	});

	it('service.processCycle (what the --cycle-interval timer calls) and POST /__mock/events are sliced the same way', async () => {
		const counter = writesPerTurn();
		await mock.service.processCycle(BIGGEST);
		for (const event_type of WEBHOOK_EVENT_TYPES) {
			// In-process, the next request would start in the same turn as this answer (all promises); over a socket it cannot.
			await new Promise((resolve) => setImmediate(resolve));
			expect((await call(MOCK_CONTROL_PATHS.events, { base: APP_URL, token: null, method: 'POST', body: { event_type } })).status).toBe(200);
		}
		expect(Math.max(...counter.stop())).toBeLessThanOrEqual(WRITES_PER_TURN + 1);
	});

	it('a reader never sees half a cycle: every search answered while it runs counts the jobs before it or after it', async () => {
		const count = async () => (await ok(jobSearchEnvelopeSchema, '/jobs?search=e')).metrics.count_jobs;
		const before = await count();
		let done = false;
		const cycle = call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST', body: { ...BIGGEST, updated: 0, signals: 0, domain_changes: 0, deleted: 400 } }).then((answer) => {
			done = true;
			return answer;
		});
		const seen: number[] = [];
		let askedDuring = 0;
		// Searches asked while the cycle runs, one per turn.
		while (!done) {
			askedDuring++;
			seen.push(await count());
			await new Promise((resolve) => setImmediate(resolve));
		}
		expect((await cycle).status).toBe(200);
		const after = await count();
		expect(after).not.toBe(before);
		expect(askedDuring).toBeGreaterThan(0);
		for (const n of seen) expect([before, after]).toContain(n);
	});
});
