/**
 * The trigger in a real n8n 2.40.7 (`npm run bench:trigger`, after the
 * in-process benchmark): 1,000 distinct deliveries plus 100 repeats (10 %,
 * each sent 100 deliveries after its original, as a retry comes later), 32 in
 * flight over real HTTP through the deployment's front (a proxy that routes
 * the trigger's path to one webhook process, as README advises for queue
 * mode); then n8n's own executions are counted per id. Regular mode (one
 * `n8n start`, SQLite) and queue mode (Postgres + Redis, main + 2 webhook + 2
 * worker processes). Run by vitest for its TypeScript loading; it reports
 * figures, and fails only when an event is lost.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { executionsOf, executionsPerId, startDeployment, type Deployment, type Mode } from '../harness/n8n/deployment.mts';
import { jobCreatedEnvelope, triggerWorkflow } from '../harness/n8n/real-n8n.mts';
import { percentile } from './percentiles.mts';
import { inParallel } from '../harness/in-parallel.mts';

const DISTINCT = 1000;
const REPEATS = 100;
const REPEAT_DISTANCE = 100;
const IN_FLIGHT = 32;
const WORKFLOW_ID = 'benchTrigger';
const WEBHOOK_ID = '3f6b8d20-7c1e-4a9b-8e5d-2a4c6e8f0b13';

const workflow = triggerWorkflow({ id: WORKFLOW_ID, webhookId: WEBHOOK_ID, registration: 'manual' });


async function bench(mode: Mode) {
	const deployment = await startDeployment(mode, ['--rate-limit', '0'], [`webhook/${WEBHOOK_ID}/webhook`], async (n8n) => {
		await n8n.importWorkflows([workflow]);
		await n8n.publish(WORKFLOW_ID);
	});
	try {
		await measure(mode, deployment);
	} finally {
		await deployment.close();
	}
}

async function measure(mode: Mode, deployment: Deployment) {
	const run = randomUUID().slice(0, 8);
	const ids = Array.from({ length: DISTINCT }, (_, i) => `bench-${run}-${i}`);
	// Every tenth id comes again REPEAT_DISTANCE deliveries later (after the last original, at the end).
	const sends = [...ids.map((id, i) => ({ id, at: i })), ...ids.filter((_, i) => i % (DISTINCT / REPEATS) === 0).map((id, k) => ({ id, at: k * (DISTINCT / REPEATS) + REPEAT_DISTANCE + 0.5 }))]
		.sort((a, b) => a.at - b.at)
		.map((send) => send.id);
	const timings: number[] = [];
	const statuses = new Map<number, number>();
	const started = performance.now();
	await inParallel(sends, IN_FLIGHT, async (id) => {
		const t0 = performance.now();
		const response = await fetch(`${deployment.front.url}webhook/${WEBHOOK_ID}/webhook`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(jobCreatedEnvelope(id)),
		});
		await response.arrayBuffer();
		timings.push(performance.now() - t0);
		statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
	});
	const elapsed = performance.now() - started;
	const executions = await executionsOf(deployment, WORKFLOW_ID);
	const perId = Object.values(executionsPerId(executions, ids));
	const sorted = [...timings].sort((a, b) => a - b);
	const lost = perId.filter((c) => c === 0).length;
	console.log(
		[
			`[bench:trigger, real n8n, ${mode} mode] ${sends.length} deliveries (${DISTINCT} distinct + ${sends.length - DISTINCT} repeats), ${IN_FLIGHT} in flight through the front to 1 of ${deployment.webhookBases.length} webhook process(es)`,
			`  answers: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}`,
			`  time to answer: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; ${((sends.length / elapsed) * 1000).toFixed(0)} deliveries/s`,
			`  executions: ${executions.length} (${executions.filter((e) => e.status !== 'success').length} not successful); ids lost ${lost}, ids started twice or more ${perId.filter((c) => c > 1).length}`,
		].join('\n'),
	);
	expect(lost).toBe(0);
}

describe('bench:trigger in a real n8n', () => {
	it('regular mode', () => bench('regular'), 900_000);
	it('queue mode', () => bench('queue'), 900_000);
});
