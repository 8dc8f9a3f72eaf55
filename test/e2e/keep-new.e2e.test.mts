/**
 * Keep New Jobs and Signals at and past its row of seen ids' bound in a real n8n (regular mode, SQLite): n8n's Webhook → Split
 * Out (a body of job items, as a catch-up brings them) → Keep New, published. Per batch size (9,999, 10,000, 10,001,
 * 25,000 new ids, in random order), the batch, then its newest and its oldest ids again (random order), each one
 * execution; what Keep New passed is read from n8n's REST API. docs/guarantees.md, "Keep New's row of seen ids", says which ids
 * the row holds; this checks each execution against it. In the run's shared n8n (harness/n8n/shared-n8n.mts), steps one
 * after another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { N8nInstance } from '../../harness/n8n/deployment.mts';
import { keepNewWorkflow, lanePaths, latestExecution, sendToLane, type Lane } from '../../harness/n8n/keep-new-lanes.mts';
import { useSharedN8n } from '../../harness/n8n/shared-n8n.mts';
import { MAX_SEEN } from '../../nodes/JobSignals/helpers/newest-ids';

const WORKFLOW = 'keepNewBound';
const SIZES = [MAX_SEEN - 1, MAX_SEEN, MAX_SEEN + 1, 2.5 * MAX_SEEN];
/** A late retry's size, as the tester's: the newest or oldest 2,000 of a batch again. */
const REPEAT = 2000;
const CREATED = 1_760_000_000;
/** A lane per batch size, each Keep New with its own row of seen ids, and one with On Error → Continue. */
const CONTINUE = 'continue';
const LANES: Lane[] = [...SIZES.map((size) => ({ name: String(size) })), { name: CONTINUE, onError: 'continueRegularOutput' }];

function shuffle<T>(list: T[]): T[] {
	const out = [...list];
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(Math.random() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

describe(`Keep New Jobs and Signals holds the newest ${MAX_SEEN.toLocaleString('en')} ids at any batch size (real n8n, regular mode)`, () => {
	let deployment: N8nInstance;
	let lastExecution = '0';

	beforeAll(async () => {
		deployment = await useSharedN8n(['--rate-limit', '0'], lanePaths(LANES), async (n8n) => {
			await n8n.importWorkflows([keepNewWorkflow(WORKFLOW, LANES)]);
			await n8n.publish(WORKFLOW);
		});
		// The readiness probes (a body without items) ran executions in which Keep New had nothing to do.
		lastExecution = await latestExecution(deployment, WORKFLOW);
	});

	afterAll(async () => {
		await deployment?.close();
	});

	/** What Keep New passed when sent these items, from n8n's REST API. */
	async function send(lane: string, items: object[]): Promise<Record<string, unknown>[]> {
		const run = await sendToLane(deployment, WORKFLOW, lane, items, lastExecution);
		lastExecution = run.executionId;
		return run.passed;
	}

	it.each(SIZES)('a batch of %i new ids, then its newest and oldest again, in random orders', async (size) => {
		const lane = String(size);
		const job = (n: number) => ({ job_id: `${lane}-${n}`, created_at: CREATED + n });
		/** What Keep New passed: the n of each job id, sorted. */
		const passed = async (ns: number[]) => (await send(lane, shuffle(ns).map(job))).map((item) => Number(String(item.job_id).split('-')[1])).sort((a, b) => a - b);
		// The oldest ids of a batch larger than the row: they pass once, and the row does not hold them.
		const beyond = Math.max(0, size - MAX_SEEN);
		const newest = (count: number) => range(size - count, size);
		const oldest = range(0, REPEAT);
		const steps: { step: string; ns: number[]; pass: number[] }[] = [
			{ step: 'the batch', ns: range(0, size), pass: range(0, size) },
			{ step: `its newest ${REPEAT}`, ns: newest(REPEAT), pass: [] },
			{ step: `its newest ${Math.min(size, MAX_SEEN)}`, ns: newest(Math.min(size, MAX_SEEN)), pass: [] },
			// Those beyond the row pass again, and are stored after the others: they push the oldest held out.
			{ step: `its oldest ${REPEAT}`, ns: oldest, pass: range(0, Math.min(REPEAT, beyond)) },
			{ step: `those that passed again, and its newest ${REPEAT}`, ns: [...range(0, Math.min(REPEAT, beyond)), ...newest(REPEAT)], pass: [] },
			{ step: `the ${REPEAT} the row held oldest after the batch`, ns: range(beyond, beyond + REPEAT), pass: range(beyond, beyond + Math.min(REPEAT, beyond)) },
		];
		const seen: Record<string, number[]> = {};
		for (const { step, ns } of steps) seen[step] = await passed(ns);
		console.log(`[measured] Keep New, a batch of ${size}: passed per step ${JSON.stringify(Object.fromEntries(Object.entries(seen).map(([step, ns]) => [step, ns.length])))}`);
		expect(seen).toEqual(Object.fromEntries(steps.map(({ step, pass }) => [step, pass])));
	});

	it('On Error → Continue: an item without an id is an error item of its own; the other items are still filtered and stored', async () => {
		const job = (id: string) => ({ job_id: id, created_at: CREATED });
		const first = await send(CONTINUE, [job('c1'), { title: 'no id' }, job('c2')]);
		expect(first.map((item) => item.job_id ?? item.error)).toEqual(['c1', 'Item 1 has no job_id or signal_id', 'c2']);
		const again = await send(CONTINUE, [job('c2'), { title: 'no id' }, job('c1'), job('c3')]);
		expect(again.map((item) => item.job_id ?? item.error)).toEqual(['Item 1 has no job_id or signal_id', 'c3']);
	});
});
