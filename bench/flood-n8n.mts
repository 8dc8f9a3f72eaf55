/**
 * `npm run bench:flood`: what a flood of forged deliveries does to the webhook trigger WITHOUT sender checks
 * (the default), in a real `n8n start` (regular mode, SQLite). The e2e flood case (test/e2e/exactly-once.mts)
 * proves the same flood harmless with URL Secret on; this measures the default. 10,000 forged deliveries (valid
 * envelopes, fresh ids: whoever knows the URL can send them), 32 in flight, beside 100 real events, each sent
 * again 2,500 deliveries later as the service's retry of a lost answer would come (its retries end within about 27 s:
 * at this rate, past the trigger's windows of 2,000 ids in the process and 500 persisted). Reports the forged
 * executions, how many times each real event ran, the real deliveries' answer times and how long n8n took to run
 * everything. Run by vitest for its TypeScript loading; it reports, and fails only when a real event is lost.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listExecutions, startDeployment, type Deployment } from '../harness/n8n/deployment.mts';
import { jobCreatedEnvelope, triggerWorkflow } from '../harness/n8n/real-n8n.mts';
import { percentile } from './percentiles.mts';
import { inParallel } from '../harness/in-parallel.mts';

const FORGED = 10_000;
const REAL = 100;
const RETRY_DISTANCE = 2500;
const IN_FLIGHT = 32;
const WORKFLOW_ID = 'benchFlood';
const WEBHOOK_ID = '6c1d8e42-9b3a-4f7e-a2d5-0e8b4c7f1a96';


async function measure(deployment: Deployment) {
	const run = randomUUID().slice(0, 8);
	const real = Array.from({ length: REAL }, (_, i) => `real-${run}-${i}`);
	// A real event every FORGED / REAL deliveries, its retry RETRY_DISTANCE deliveries later.
	const every = FORGED / REAL;
	const sends: { id: string; real: boolean; at: number }[] = [
		...Array.from({ length: FORGED }, (_, i) => ({ id: `forged-${run}-${i}`, real: false, at: i })),
		...real.map((id, k) => ({ id, real: true, at: k * every + 0.5 })),
		...real.map((id, k) => ({ id, real: true, at: k * every + RETRY_DISTANCE + 0.5 })),
	].sort((a, b) => a.at - b.at);
	const url = `${deployment.webhookBases[0]}webhook/${WEBHOOK_ID}/webhook`;
	const realTimes: number[] = [];
	const statuses = new Map<number, number>();
	const started = performance.now();
	await inParallel(sends, IN_FLIGHT, async (send) => {
		const sentAt = performance.now();
		const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(jobCreatedEnvelope(send.id)) });
		await response.arrayBuffer();
		statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
		if (send.real) realTimes.push(performance.now() - sentAt);
	});
	const sentMs = performance.now() - started;
	// n8n answers before it runs the execution: wait until it has run every one it started.
	let executions = await listExecutions(deployment, WORKFLOW_ID);
	for (let stable = 0; stable < 3; ) {
		await new Promise((resolve) => setTimeout(resolve, 2000));
		const now = await listExecutions(deployment, WORKFLOW_ID);
		stable = now.length === executions.length && !now.some((e) => ['new', 'running', 'waiting'].includes(e.status)) ? stable + 1 : 0;
		executions = now;
	}
	const doneMs = performance.now() - started;
	// Which id each execution ran: its data holds the webhook_event_id (read in pages, the list is long).
	const perReal = new Map(real.map((id) => [id, 0]));
	let forgedRan = 0;
	for (let i = 0; i < executions.length; i += 20) {
		await Promise.all(
			executions.slice(i, i + 20).map(async (execution) => {
				const detail = (await (await deployment.rest(`/rest/executions/${execution.id}`)).json()) as { data: { data: string } };
				const id = real.find((candidate) => detail.data.data.includes(`"${candidate}"`));
				if (id) perReal.set(id, perReal.get(id)! + 1);
				else forgedRan++;
			}),
		);
	}
	const times = realTimes.sort((a, b) => a - b);
	const counts = [...perReal.values()];
	const byCount = Object.fromEntries([...new Set(counts)].sort().map((count) => [`${count}×`, counts.filter((c) => c === count).length]));
	console.log(
		[
			`[measured] flood without sender checks, regular mode: ${FORGED} forged + ${REAL} real deliveries (each again ${RETRY_DISTANCE} later), ${IN_FLIGHT} in flight, sent in ${(sentMs / 1000).toFixed(1)} s (${Math.round((FORGED + 2 * REAL) / (sentMs / 1000))}/s); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
			`executions: ${executions.length} (${forgedRan} of forged events), all run ${(doneMs / 1000).toFixed(1)} s after the first send; statuses ${JSON.stringify(Object.fromEntries([...new Set(executions.map((e) => e.status))].map((s) => [s, executions.filter((e) => e.status === s).length])))}`,
			`real events by executions each: ${JSON.stringify(byCount)}`,
			`real deliveries' answers: p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms (the service gives up on an answer after 5,000 ms)`,
		].join('\n'),
	);
	expect(counts.filter((count) => count === 0)).toEqual([]);
}

describe('bench: a flood of forged deliveries without sender checks (regular mode)', () => {
	it(`${FORGED} forged deliveries beside ${REAL} real events and their retries`, async () => {
		const deployment = await startDeployment('regular', ['--rate-limit', '0'], [`webhook/${WEBHOOK_ID}/webhook`], async (n8n) => {
			await n8n.importWorkflows([triggerWorkflow({ id: WORKFLOW_ID, webhookId: WEBHOOK_ID, registration: 'manual' })]);
			await n8n.publish(WORKFLOW_ID);
		});
		try {
			await measure(deployment);
		} finally {
			await deployment.close();
		}
	});
});
