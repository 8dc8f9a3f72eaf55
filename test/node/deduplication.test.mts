// Deduplication → Keep New Jobs and Signals, run by n8n-core's WorkflowExecute against the harness's deduplication store.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WorkflowExecuteMode } from 'n8n-workflow';
import { MAX_SEEN } from '../../nodes/JobSignals/helpers/newest-ids';
import { runNode } from '../../harness/in-process/workflow.mts';
import { NODE_TYPE } from './direct.mts';

type Item = Record<string, unknown>;

let workflows = 0;
/** The execution hints of every run, newest last. */
const hints: string[] = [];
/** A workflow of its own per test: the row of seen ids is the node's, in the workflow. */
function keepNew(onError?: 'continueRegularOutput') {
	const workflowId = `dedupe-${++workflows}`;
	return async (input: Item[], mode: WorkflowExecuteMode = 'trigger') => {
		const run = await runNode({ type: NODE_TYPE, parameters: { resource: 'deduplication', operation: 'keepNew' }, input, mode, workflowId, onError });
		if (run.error) throw run.error;
		hints.push(...run.hints.map((hint) => hint.message));
		return run.items.map((item): Item => ({ ...item.json, paired: item.pairedItem }));
	};
}

const webhookJob = (id: string, type = 'job_created') => ({ event_type: type, webhook_event_id: `evt-${type}-${id}`, job_id: id, title: `Job ${id}` });
const webhookSignal = (id: string) => ({ event_type: 'signal', webhook_event_id: `evt-signal-${id}`, signal_id: id });
const polledJob = (id: string) => ({ job_id: id, title: `Job ${id}` });
const polledSignal = (id: string) => ({ signal_id: id });

describe('Deduplication → Keep New Jobs and Signals', () => {
	it('passes each job and signal once, whichever trigger brings it first, each item paired with its input', async () => {
		const run = keepNew();
		expect(await run([webhookJob('j1'), webhookSignal('s1')])).toEqual([
			{ ...webhookJob('j1'), paired: { item: 0 } },
			{ ...webhookSignal('s1'), paired: { item: 1 } },
		]);
		// The poll trigger brings j1 and s1 again after a downtime, with j2 and s2 that the webhooks missed.
		expect(await run([polledJob('j2'), polledJob('j1'), polledSignal('s1'), polledSignal('s2')])).toEqual([
			{ ...polledJob('j2'), paired: { item: 0 } },
			{ ...polledSignal('s2'), paired: { item: 3 } },
		]);
		// Polling brought two items no webhook had delivered: the run says so.
		expect(hints.at(-1)).toMatch(/^2 of these came from polling before any webhook delivered them: n8n was down or unreachable/);
		const hinted = hints.length;
		// A late webhook retry of j2 passes nothing on, and says nothing.
		expect(await run([webhookJob('j2')])).toEqual([]);
		expect(hints).toHaveLength(hinted);
	});

	it('a job id and a signal id that are the same string are different records', async () => {
		const run = keepNew();
		expect(await run([polledJob('x1'), polledSignal('x1')])).toHaveLength(2);
	});

	it('job_updated and job_deleted events pass through every time and are not stored', async () => {
		const run = keepNew();
		const updated = webhookJob('j9', 'job_updated');
		const deleted = webhookJob('j9', 'job_deleted');
		expect(await run([updated, deleted])).toHaveLength(2);
		expect(await run([updated])).toHaveLength(1);
		// j9 was never stored as seen by them: its creation still passes.
		expect(await run([webhookJob('j9')])).toHaveLength(1);
	});

	it('an id twice in one input passes its first item only', async () => {
		const run = keepNew();
		expect(await run([polledJob('d1'), webhookJob('d1'), polledJob('d2')])).toEqual([
			{ ...polledJob('d1'), paired: { item: 0 } },
			{ ...polledJob('d2'), paired: { item: 2 } },
		]);
	});

	it('a test run (manual) passes everything and stores nothing; a retried execution passes everything', async () => {
		const run = keepNew();
		expect(await run([polledJob('m1')], 'manual')).toHaveLength(1);
		expect(await run([polledJob('m1')], 'manual')).toHaveLength(1);
		expect(await run([polledJob('m1')])).toHaveLength(1);
		expect(await run([polledJob('m1')])).toHaveLength(0);
		expect(await run([polledJob('m1')], 'retry')).toHaveLength(1);
	});

	it('an item without job_id or signal_id fails the run, naming the item, and passes nothing on', async () => {
		const run = keepNew();
		const failure = run([polledJob('ok'), { name: 'no id' }]).catch((error: unknown) => error as Error & { description?: string });
		const error = await failure;
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toBe('Item 1 has no job_id or signal_id');
		expect((error as { description?: string }).description).toContain('Connect it right after them');
		// Nothing was stored: the good item of the failed run still passes.
		expect(await run([polledJob('ok')])).toHaveLength(1);
	});

	it('an item without an id on Continue (On Error) is an error item of its own: the others are still filtered and stored', async () => {
		const run = keepNew('continueRegularOutput');
		expect(await run([polledJob('c1')])).toHaveLength(1);
		expect(await run([polledJob('c1'), { name: 'no id' }, polledJob('c2'), webhookJob('c3', 'job_updated')])).toEqual([
			{ error: 'Item 1 has no job_id or signal_id', errorDescription: expect.stringContaining('Connect it right after them'), paired: { item: 1 } },
			{ ...polledJob('c2'), paired: { item: 2 } },
			{ ...webhookJob('c3', 'job_updated'), paired: { item: 3 } },
		]);
		// c2 was stored in that run: it passes no second time.
		expect(await run([polledJob('c2'), polledJob('c1'), { name: 'no id' }])).toEqual([{ error: 'Item 2 has no job_id or signal_id', errorDescription: expect.any(String), paired: { item: 2 } }]);
		// A test run passes the others, and the error item stands in for the item without an id.
		expect(await run([polledJob('c1'), {}], 'manual')).toEqual([
			{ ...polledJob('c1'), paired: { item: 0 } },
			{ error: 'Item 1 has no job_id or signal_id', errorDescription: expect.any(String), paired: { item: 1 } },
		]);
	});

	it(`holds the newest ${MAX_SEEN.toLocaleString('en')} ids of a larger batch by created_at, whatever the items' order; the older ones passed once and pass again`, async () => {
		const run = keepNew();
		// b0 oldest, b{MAX_SEEN} newest; given newest first, as the triggers emit them.
		const batch = Array.from({ length: MAX_SEEN + 1 }, (_, i) => ({ ...polledJob(`b${i}`), created_at: 1_760_000_000 + i }));
		expect(await run([...batch].reverse())).toHaveLength(MAX_SEEN + 1);
		expect(await run([batch[MAX_SEEN], batch[1]])).toEqual([]);
		expect(await run([batch[0]])).toEqual([{ ...batch[0], paired: { item: 0 } }]);
		// b0 passed again and was stored last: it pushed out the oldest held id, b1.
		expect(await run([batch[0], batch[2]])).toEqual([]);
		expect(await run([batch[1]])).toHaveLength(1);
	});

	it('created_at as ISO 8601 (Simplified output) orders as the epoch seconds do; items without one count as older than those with one', async () => {
		const run = keepNew();
		const iso = (i: number) => new Date((1_760_000_000 + i) * 1000).toISOString();
		const timed = Array.from({ length: MAX_SEEN }, (_, i) => ({ ...polledJob(`t${i}`), created_at: i % 2 === 0 ? iso(i) : 1_760_000_000 + i }));
		const untimed = [polledJob('u0'), { ...polledJob('u1'), created_at: 'not a time' }];
		expect(await run([...[...timed].reverse(), ...untimed])).toHaveLength(MAX_SEEN + 2);
		// The two untimed items counted as the oldest: out of the row; every timed one is held.
		expect(await run([...untimed, ...timed])).toEqual(untimed.map((item, index) => ({ ...item, paired: { item: index } })));
	});

	it('items of the same created_at, or with none, are newest first in item order, as the triggers emit them', async () => {
		const run = keepNew();
		// One second for all: the first item is the newest, the last the oldest.
		const batch = Array.from({ length: MAX_SEEN + 2 }, (_, i) => ({ ...polledSignal(`s${i}`), created_at: 1_760_000_000 }));
		expect(await run(batch)).toHaveLength(MAX_SEEN + 2);
		expect(await run([batch[0], batch[MAX_SEEN - 1], batch[MAX_SEEN], batch[MAX_SEEN + 1]]).then((out) => out.map((item) => item.signal_id))).toEqual([`s${MAX_SEEN}`, `s${MAX_SEEN + 1}`]);
		const untimed = keepNew();
		const signals = Array.from({ length: MAX_SEEN + 1 }, (_, i) => polledSignal(`n${i}`));
		expect(await untimed(signals)).toHaveLength(MAX_SEEN + 1);
		expect(await untimed([signals[MAX_SEEN], signals[0]]).then((out) => out.map((item) => item.signal_id))).toEqual([`n${MAX_SEEN}`]);
	});
});

/**
 * The row of seen ids as docs/guarantees.md ("Keep New's row of seen ids") states it: each execution's new ids are added oldest first
 * (by created_at), after those held before, and the last MAX_SEEN are held. An id passes exactly when it is not held.
 */
function rowModel() {
	let held: number[] = [];
	return {
		holds: (n: number) => held.includes(n),
		/** The ids of one execution (numbers: n is created_at's second), in item order: which pass. */
		run(ns: number[]): Set<number> {
			const heldNow = new Set(held);
			const fresh = [...new Set(ns.filter((n) => !heldNow.has(n)))];
			held = [...held, ...fresh.sort((a, b) => a - b)].slice(-MAX_SEEN);
			return new Set(fresh);
		},
	};
}

/** A repeatable shuffle (mulberry32), so fast-check can replay a failing order from its seed. */
function shuffled<T>(list: T[], seed: number): T[] {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const out = [...list];
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(next() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

describe(`Keep New's row of seen ids at and past its bound (fast-check, numRuns ${12}, seed 3636)`, () => {
	it('no id passes twice while the row holds it, and a batch leaves its newest ids held, at any batch size and in any order', async () => {
		const part = fc.record({
			which: fc.constantFrom('newest', 'oldest', 'some'),
			size: fc.oneof(fc.integer({ min: MAX_SEEN - 2, max: MAX_SEEN + 2 }), fc.integer({ min: 1, max: MAX_SEEN + 2 })),
			fresh: fc.nat(20),
			order: fc.nat(),
		});
		const scenario = fc.record({
			size: fc.oneof(fc.integer({ min: MAX_SEEN - 2, max: MAX_SEEN + 2 }), fc.integer({ min: 1, max: 2.5 * MAX_SEEN })),
			// Items with created_at come in any order; without it, the order is the time: newest first, as the triggers emit them.
			timed: fc.boolean(),
			order: fc.nat(),
			repeats: fc.array(part, { minLength: 1, maxLength: 4 }),
		});
		await fc.assert(
			fc.asyncProperty(scenario, async ({ size, timed, order, repeats }) => {
				const run = keepNew();
				const model = rowModel();
				const item = (n: number) => (timed ? { ...polledJob(`p${n}`), created_at: 1_760_000_000 + n } : polledJob(`p${n}`));
				const arrange = (ns: number[], seed: number) => (timed ? shuffled(ns, seed) : [...ns].sort((a, b) => b - a));
				let next = size;
				const batches = [arrange(Array.from({ length: size }, (_, n) => n), order)];
				for (const repeat of repeats) {
					const all = Array.from({ length: next }, (_, n) => n);
					const picked = repeat.which === 'newest' ? all.slice(-repeat.size) : repeat.which === 'oldest' ? all.slice(0, repeat.size) : shuffled(all, repeat.order).slice(0, repeat.size);
					const fresh = Array.from({ length: repeat.fresh }, (_, i) => next + i);
					next += repeat.fresh;
					batches.push(arrange([...picked, ...fresh], repeat.order));
				}
				for (const ns of batches) {
					const passed = (await run(ns.map(item))).map((out) => Number(String(out.job_id).slice(1)));
					// Never an id the record held before this execution; each new one once.
					expect(passed.filter((n) => model.holds(n))).toEqual([]);
					const expected = model.run(ns);
					expect(passed.length).toBe(expected.size);
					expect(new Set(passed)).toEqual(expected);
				}
			}),
			{ numRuns: 12, seed: 3636 },
		);
	});
});
