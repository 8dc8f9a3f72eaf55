/**
 * `npm run bench:trigger`: a burst of 1,000 distinct deliveries plus 100
 * repeats (10 %, as retries would send) over real HTTP to a receiver that runs
 * the trigger's webhook function through n8n-core (harness/in-process/trigger.mts).
 * Reports the time to answer (p50/p99, measured by the sender from request to
 * complete answer), events emitted (goal: exactly 1,000), lost (goal: 0), and
 * the size of the dedupe window in the workflow's static data.
 * It runs the built package (dist/), the code n8n would load.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import type { INodeType } from 'n8n-workflow';
import { WEBHOOK_EVENT_TYPES } from '../contract/events';
import { PERSISTED_WINDOW } from '../nodes/JobSignalsTrigger/dedupe-window.ts';
import { envelope } from '../harness/in-process/trigger-fixtures.mts';
import { createTrigger } from '../harness/in-process/trigger.mts';
import { serveTrigger } from '../harness/in-process/trigger-receiver.mts';
import { median, percentile } from './percentiles.mts';
import { inParallel } from '../harness/in-parallel.mts';

const DISTINCT = 1000;
/** Deliveries to a separate trigger first, so one-off start-up (JIT, n8n-core's settings file) is not in the burst. */
const WARM_UP = 200;
const REPEATS = 100;
const CONCURRENCY = 32;

/** Deterministic shuffle positions, so every run sends the same sequence. */
function random(seed: number) {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
		return state / 2 ** 31;
	};
}

function buildBurst() {
	const next = random(42);
	const bodies = Array.from({ length: DISTINCT }, (_, i) => realistic(WEBHOOK_EVENT_TYPES[i % WEBHOOK_EVENT_TYPES.length]));
	// Each repeat goes somewhere after its original, as a retry does.
	for (let r = 0; r < REPEATS; r++) {
		const original = Math.floor(next() * DISTINCT);
		const body = bodies[original];
		const from = bodies.indexOf(body) + 1;
		bodies.splice(from + Math.floor(next() * (bodies.length - from + 1)), 0, body);
	}
	return bodies;
}

/** Ids shaped like the mock's (`whe_` + UUID), so the window's size is the real one. */
const realistic = (eventType: (typeof WEBHOOK_EVENT_TYPES)[number]) =>
	JSON.stringify(envelope(eventType, { webhook_event_id: `whe_${randomUUID()}` }));

function post(agent: Agent, url: URL, body: string): Promise<{ status: number; ms: number }> {
	const started = performance.now();
	return new Promise((resolve, reject) => {
		const sent = request(
			url,
			{ method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
			(response) => {
				response.resume();
				response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
			},
		);
		sent.on('error', reject);
		sent.end(body);
	});
}

async function sendAll(agent: Agent, url: URL, bodies: string[]) {
	const results: Array<{ status: number; ms: number }> = [];
	await inParallel(bodies, CONCURRENCY, async (body) => results.push(await post(agent, url, body)));
	return results;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
	// The built bundle, as n8n loads it (CommonJS require), not the TypeScript source.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const built = require(resolve('dist/nodes/JobSignalsTrigger/JobSignalsTrigger.node.js')) as {
		JobSignalsTrigger: new () => INodeType;
	};
	const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
	const warmUp = await serveTrigger(createTrigger({ nodeType: new built.JobSignalsTrigger() }));
	await sendAll(agent, new URL(warmUp.url), Array.from({ length: WARM_UP }, () => realistic('signal')));
	await warmUp.close();

	const trigger = createTrigger({ nodeType: new built.JobSignalsTrigger() });
	const served = await serveTrigger(trigger);
	const url = new URL(served.url);
	try {
		const bodies = buildBurst();
		const distinctIds = new Set(bodies.map((body) => (JSON.parse(body) as { webhook_event_id: string }).webhook_event_id));
		const started = performance.now();
		const results = await sendAll(agent, url, bodies);
		const wallMs = performance.now() - started;

		const times = results.map((result) => result.ms).sort((a, b) => a - b);
		const handling = [...served.handlingMs].sort((a, b) => a - b);
		const non200 = results.filter((result) => result.status !== 200).length;
		const emittedIds = served.emitted.map((item) => String(item.webhook_event_id));
		const emittedDistinct = new Set(emittedIds);
		const lost = [...distinctIds].filter((id) => !emittedDistinct.has(id)).length;
		const idsAfterBurst = trigger.staticData().seenEventCount;
		const windowAfterBurst = Buffer.byteLength(String(trigger.staticData().seenEventKeys ?? ''));
		const staticDataAfterBurst = trigger.savedStaticDataBytes();

		// Fill the window to its bound, then past it, to show the memory it settles at.
		const fill = Array.from({ length: PERSISTED_WINDOW }, () => realistic('job_created'));
		await sendAll(agent, url, fill);
		const windowFull = Buffer.byteLength(String(trigger.staticData().seenEventKeys ?? ''));

		const lines = [
			`burst: ${bodies.length} deliveries (${DISTINCT} distinct + ${REPEATS} repeats), ${CONCURRENCY} concurrent, over real HTTP, after ${WARM_UP} warm-up deliveries`,
			`time to answer (sender, ${CONCURRENCY} in flight): p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms`,
			`trigger handling per delivery (receiver): p50 ${percentile(handling, 50).toFixed(3)} ms, p99 ${percentile(handling, 99).toFixed(3)} ms`,
			`throughput: ${(bodies.length / (wallMs / 1000)).toFixed(0)} deliveries/s (${wallMs.toFixed(0)} ms wall)`,
			`answers other than 200: ${non200}`,
			`events emitted: ${emittedIds.length} (distinct ${emittedDistinct.size}; goal exactly ${DISTINCT})`,
			`lost: ${lost} (goal 0)`,
			`persisted dedupe window after the burst: ${idsAfterBurst} keys, ${kb(windowAfterBurst)} (static data ${kb(staticDataAfterBurst)})`,
			`persisted dedupe window at its bound: ${trigger.staticData().seenEventCount} keys (max ${PERSISTED_WINDOW}), ${kb(windowFull)}`,
		];
		console.log(lines.join('\n'));
		const ok = emittedIds.length === DISTINCT && emittedDistinct.size === DISTINCT && lost === 0 && non200 === 0;
		if (!ok) process.exitCode = 1;
	} finally {
		agent.destroy();
		await served.close();
	}
	await checksSideBySide(built.JobSignalsTrigger);
}

/** Rounds of one burst shared by the two triggers, checks off and on. */
const CHECK_ROUNDS = 10;
const SECRET = 'bench-url-secret-0123456789abcdef';

/**
 * What the sender checks cost: a trigger without checks and one with URL Secret and Allowed IPs (127.0.0.1, the
 * sender) served side by side, each round's deliveries alternating between the two, so that whatever the machine does
 * meanwhile falls on both alike. The figure is each receiver's handling time per delivery (its median), round by round.
 */
async function checksSideBySide(JobSignalsTrigger: new () => INodeType) {
	const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
	const ratios: number[] = [];
	const rows: string[] = [];
	for (let round = 1; round <= CHECK_ROUNDS; round++) {
		const off = await serveTrigger(createTrigger({ nodeType: new JobSignalsTrigger() }));
		const on = await serveTrigger(createTrigger({ nodeType: new JobSignalsTrigger(), parameters: { options: { urlSecret: SECRET, allowedIps: '127.0.0.1' } } }));
		try {
			const urls = [new URL(off.url), new URL(`${on.url}?secret=${SECRET}`)];
			// The same burst to each, its deliveries interleaved: off, on, off, on …
			const burst = buildBurst().flatMap((body) => [0, 1].map((target) => ({ target, body })));
			const results: Array<{ status: number }> = [];
			await inParallel(burst, CONCURRENCY, async ({ target, body }) => results.push(await post(agent, urls[target], body)));
			if (results.some((result) => result.status !== 200)) throw new Error('answers other than 200');
			if (off.emitted.length !== DISTINCT || on.emitted.length !== DISTINCT) throw new Error(`events emitted off ${off.emitted.length}, on ${on.emitted.length}, not ${DISTINCT} each`);
			const [offMs, onMs] = [median(off.handlingMs), median(on.handlingMs)];
			ratios.push(onMs / offMs);
			rows.push(`round ${round}: off p50 ${offMs.toFixed(3)} ms, on p50 ${onMs.toFixed(3)} ms, ×${(onMs / offMs).toFixed(3)}`);
		} finally {
			await off.close();
			await on.close();
		}
	}
	agent.destroy();
	const sorted = [...ratios].sort((a, b) => a - b);
	console.log(
		[
			`sender checks (URL Secret + Allowed IPs) against none, ${CHECK_ROUNDS} rounds, each of 2 × ${buildBurst().length} deliveries alternating between the two triggers, ${CONCURRENCY} in flight; receiver's handling per delivery:`,
			...rows,
			`median ratio on/off: ×${percentile(sorted, 50).toFixed(3)} (min ×${sorted[0].toFixed(3)}, max ×${sorted.at(-1)!.toFixed(3)}; goal ≤ ×1.05)`,
		].join('\n'),
	);
}

void main();
