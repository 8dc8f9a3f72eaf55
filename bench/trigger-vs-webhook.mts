/**
 * The trigger side by side with n8n's own Webhook node in one real n8n 2.40.7
 * (`npm run bench:trigger`, after the other parts; alone:
 * `npx vitest run --config vitest.bench-n8n.config.mts bench/trigger-vs-webhook.mts`).
 * Three published workflows in the same n8n, each start node → No Operation:
 * the Job Signals Trigger at typeVersion 1 and at 1.1, and the Webhook node
 * (POST, respond immediately). The same envelope (a distinct id each time) is
 * POSTed straight to the process that serves production webhooks, in rounds
 * that alternate the workflows' order, at 1, 8 and 32 in flight. Each round
 * reports time to answer, deliveries per second and the CPU time of every n8n
 * process (main, task runners, and in queue mode webhook and worker processes,
 * from /proc) per delivery; n8n's executions are counted through its REST API.
 * With n8n's default (eager) expression isolate and with
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true; regular mode, and queue mode with
 * BENCH_TRIGGER_MODES=regular,queue (BENCH_TRIGGER_ENGINE=eager or lazy: that one only; BENCH_TRIGGER_IN_FLIGHT=1: those only).
 * Fails only when an answer is not 200 or executions do not match deliveries.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { describe, expect, it } from 'vitest';
import { listExecutions, startDeployment, type Deployment, type Mode } from '../harness/n8n/deployment.mts';
import { jobCreatedEnvelope, triggerNode } from '../harness/n8n/real-n8n.mts';
import { PERSISTED_WINDOW } from '../nodes/JobSignalsTrigger/dedupe-window.ts';
import { median, percentile } from './percentiles.mts';
import { inParallel } from '../harness/in-parallel.mts';

/** BENCH_TRIGGER_IN_FLIGHT=1 (or 1,8 …) runs only those. */
const IN_FLIGHT = (process.env.BENCH_TRIGGER_IN_FLIGHT ?? '1,8,32').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_TRIGGER_ROUNDS ?? 5);
/** Deliveries per workflow per round, by in-flight count. */
const PER_ROUND: Record<number, number> = { 1: 100, 8: 240, 32: 320 };
for (const n of IN_FLIGHT) if (!(n in PER_ROUND)) throw new Error(`BENCH_TRIGGER_IN_FLIGHT: ${n} is not one of ${Object.keys(PER_ROUND).join(', ')}`);
/**
 * Warm-up deliveries per workflow, 8 in flight: enough for n8n's and the node's code to be compiled for this path,
 * and more than the trigger's persisted window holds, so every round meets the window full, as a busy trigger does.
 */
const WARM_UP = PERSISTED_WINDOW + 100;
const TICKS_PER_SECOND = 100;

interface Target {
	name: string;
	workflowId: string;
	path: string;
}

const TARGETS: Target[] = [
	{ name: 'Job Signals Trigger v1', workflowId: 'benchVsTrigger10', path: 'webhook/6a1c4e2f-93b7-4d15-8f0a-2c7e5b9d1a31/webhook' },
	{ name: 'Job Signals Trigger v1.1', workflowId: 'benchVsTrigger11', path: 'webhook/7b2d5f30-a4c8-4e26-9f1b-3d8f6cae2b42/webhook' },
	{ name: 'Webhook node', workflowId: 'benchVsWebhookNode', path: 'webhook/bench-vs-webhook-node' },
];

const noOp = { id: 'noop', name: 'No Operation', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} };

function withNoOp(id: string, start: { name: string } & Record<string, unknown>) {
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [start, noOp],
		connections: { [start.name]: { main: [[{ node: noOp.name, type: 'main', index: 0 }]] } },
		pinData: {},
	};
}

const workflows = [
	withNoOp(TARGETS[0].workflowId, triggerNode({ id: TARGETS[0].workflowId, webhookId: '6a1c4e2f-93b7-4d15-8f0a-2c7e5b9d1a31', registration: 'manual', typeVersion: 1 })),
	withNoOp(TARGETS[1].workflowId, triggerNode({ id: TARGETS[1].workflowId, webhookId: '7b2d5f30-a4c8-4e26-9f1b-3d8f6cae2b42', registration: 'manual', typeVersion: 1.1 })),
	withNoOp(TARGETS[2].workflowId, {
		id: 'webhook',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		position: [0, 0],
		webhookId: '8c3e6041-b5d9-4f37-a02c-4e9a7dbf3c53',
		parameters: { httpMethod: 'POST', path: 'bench-vs-webhook-node', responseMode: 'onReceived', options: {} },
	}),
];

/** Process groups of the deployment's n8n processes (those whose environment names its user folder), with the role of each. */
function n8nProcessGroups(userFolder: string): Map<number, string> {
	const groups = new Map<number, string>();
	for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		try {
			const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
			if (!environ.split('\0').includes(`N8N_USER_FOLDER=${userFolder}`)) continue;
			const group = statFields(pid)[2];
			if (!groups.has(group)) groups.set(group, roleOf(group));
		} catch {
			// Gone, or not ours.
		}
	}
	return groups;
}

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, …]; utime and stime are 11 and 12. */
function statFields(pid: string): number[] {
	const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
	return stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
}

/** What a process group's leader runs: `n8n start` (main), `n8n webhook` or `n8n worker`. */
function roleOf(group: number): string {
	try {
		const args = readFileSync(`/proc/${group}/cmdline`, 'latin1').split('\0');
		return args.includes('webhook') ? 'webhook' : args.includes('worker') ? 'worker' : 'main';
	} catch {
		return 'main';
	}
}

/** User + system CPU seconds of every live process in the groups, by the role of its group (a group's task runners count with it). */
function cpuSeconds(groups: Map<number, string>): Map<string, number> {
	const byRole = new Map<string, number>();
	for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		try {
			const fields = statFields(pid);
			const role = groups.get(fields[2]);
			if (role === undefined) continue;
			byRole.set(role, (byRole.get(role) ?? 0) + (fields[11] + fields[12]) / TICKS_PER_SECOND);
		} catch {
			// Gone.
		}
	}
	return byRole;
}

const total = (byRole: Map<string, number>) => [...byRole.values()].reduce((sum, n) => sum + n, 0);
const minus = (after: Map<string, number>, before: Map<string, number>) => new Map([...after].map(([role, n]) => [role, n - (before.get(role) ?? 0)]));


interface Round {
	timings: number[];
	seconds: number;
	cpu: number;
	/** The CPU by process role (main, webhook, worker), to see where a difference is spent. */
	cpuByRole: Map<string, number>;
	statuses: Map<number, number>;
	/** The first answer's body for each status other than 200. */
	bodies: Map<number, string>;
}

/** How long n8n must stay below QUIET_SHARE of one core to count as idle; read in /proc ticks of 10 ms. */
const QUIET_WINDOW_MS = 300;
const QUIET_SHARE = 0.05;

/**
 * Waits until the n8n processes are idle: every execution a round started has ended. With "respond immediately"
 * a round's executions run on after its last answer; without this, they would fall into the next round, whose
 * workflow is not the one that started them (in the order v1, v1.1, Webhook node, v1.1 would pay for v1's tail).
 */
async function settle(groups: Map<number, string>): Promise<void> {
	const deadline = Date.now() + 60_000;
	let last = total(cpuSeconds(groups));
	while (Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
		const now = total(cpuSeconds(groups));
		if (now - last <= (QUIET_WINDOW_MS / 1000) * QUIET_SHARE) return;
		last = now;
	}
}

/**
 * One round: `count` deliveries, `inFlight` at a time. n8n is idle when it starts and when its CPU is read at the
 * end, so the round's CPU is that of its own deliveries and their executions (plus under QUIET_SHARE of one core
 * for QUIET_WINDOW_MS of idling, alike for every workflow).
 */
async function send(base: string, target: Target, count: number, inFlight: number, groups: Map<number, string>, run: string): Promise<Round> {
	await settle(groups);
	const timings: number[] = [];
	const statuses = new Map<number, number>();
	const bodies = new Map<number, string>();
	const cpuBefore = cpuSeconds(groups);
	const started = performance.now();
	await inParallel(Array.from({ length: count }, (_, index) => index), inFlight, async (index) => {
		const body = JSON.stringify(jobCreatedEnvelope(`vs-${run}-${target.workflowId}-${index}`));
		const t0 = performance.now();
		const response = await fetch(`${base}${target.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
		const text = await response.text();
		timings.push(performance.now() - t0);
		statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
		if (response.status !== 200 && !bodies.has(response.status)) bodies.set(response.status, text.slice(0, 500));
	});
	const seconds = (performance.now() - started) / 1000;
	await settle(groups);
	const cpuByRole = minus(cpuSeconds(groups), cpuBefore);
	return { timings, seconds, cpu: total(cpuByRole), cpuByRole, statuses, bodies };
}

/** Executions of the workflow once none is unfinished. */
async function settledCount(deployment: Deployment, workflowId: string): Promise<number> {
	const deadline = Date.now() + 300_000;
	for (;;) {
		const all = await listExecutions(deployment, workflowId);
		if (all.every((e) => !['new', 'running', 'waiting'].includes(e.status))) return all.filter((e) => e.status === 'success').length;
		if (Date.now() > deadline) throw new Error(`${workflowId}: executions still unfinished after 300 s`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

async function bench(mode: Mode, lazy: boolean) {
	// Explicit both ways: the harness's own environment (harness/n8n/config.mts) turns lazy acquisition on.
	const env = { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: lazy ? 'true' : 'false' };
	const deployment = await startDeployment(
		mode,
		['--rate-limit', '0'],
		TARGETS.map((t) => t.path),
		async (n8n) => {
			await n8n.importWorkflows(workflows);
			for (const t of TARGETS) await n8n.publish(t.workflowId);
		},
		env,
	);
	try {
		const base = deployment.webhookBases[0];
		const groups = n8nProcessGroups(deployment.n8n.userFolder);
		const before = new Map<string, number>();
		for (const t of TARGETS) before.set(t.workflowId, await settledCount(deployment, t.workflowId));
		const sent = new Map<string, number>(TARGETS.map((t) => [t.workflowId, 0]));
		const problems: string[] = [];
		const run = randomUUID().slice(0, 8);
		for (const t of TARGETS) {
			const warm = await send(base, t, WARM_UP, 8, groups, `${run}-warm`);
			sent.set(t.workflowId, sent.get(t.workflowId)! + WARM_UP);
			for (const [status, body] of warm.bodies) problems.push(`${t.name}, warm-up: HTTP ${status} ${body}`);
		}
		const label = `${mode} mode, ${lazy ? 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true' : "n8n's default (eager isolate)"}`;
		const lines = [`\n[bench:trigger vs Webhook node, real n8n 2.40.7, ${label}; ${groups.size} n8n process group(s)]`];
		lines.push('| in flight | workflow | deliveries | p50 / p95 / p99 / max ms | deliveries/s | n8n CPU ms per delivery | by process | p50 ÷ Webhook node, round by round (median) | p99 ÷ Webhook node (median) | deliveries/s ÷ Webhook node (median) | CPU ÷ Webhook node (median) | load average (1 min) |');
		lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
		for (const inFlight of IN_FLIGHT) {
			const rounds = new Map<string, Round[]>(TARGETS.map((t) => [t.workflowId, []]));
			for (let r = 0; r < ROUNDS; r++) {
				const order = r % 2 === 0 ? TARGETS : [...TARGETS].reverse();
				for (const t of order) {
					const round = await send(base, t, PER_ROUND[inFlight], inFlight, groups, `${run}-${inFlight}-${r}`);
					sent.set(t.workflowId, sent.get(t.workflowId)! + PER_ROUND[inFlight]);
					rounds.get(t.workflowId)!.push(round);
				}
			}
			const load = loadavg()[0].toFixed(1);
			const reference = rounds.get(TARGETS[2].workflowId)!;
			for (const t of TARGETS) {
				const own = rounds.get(t.workflowId)!;
				const all = own.flatMap((round) => round.timings).sort((a, b) => a - b);
				const statuses = new Map<number, number>();
				for (const round of own) for (const [status, count] of round.statuses) statuses.set(status, (statuses.get(status) ?? 0) + count);
				const seconds = own.reduce((sum, round) => sum + round.seconds, 0);
				const cpu = own.reduce((sum, round) => sum + round.cpu, 0);
				const byRole = new Map<string, number>();
				for (const round of own) for (const [role, n] of round.cpuByRole) byRole.set(role, (byRole.get(role) ?? 0) + n);
				const perRole = [...byRole].sort().map(([role, n]) => `${role} ${((n / all.length) * 1000).toFixed(1)}`).join(', ');
				const p50Ratios = own.map((round, i) => median(round.timings) / median(reference[i].timings));
				const p99Ratios = own.map((round, i) => percentile([...round.timings].sort((a, b) => a - b), 99) / percentile([...reference[i].timings].sort((a, b) => a - b), 99));
				const rateRatios = own.map((round, i) => reference[i].seconds / round.seconds);
				const cpuRatios = own.map((round, i) => round.cpu / Math.max(reference[i].cpu, 0.01));
				const isReference = t === TARGETS[2];
				lines.push(
					`| ${inFlight} | ${t.name} | ${all.length} (${[...statuses].map(([s, c]) => `${c} × ${s}`).join(', ')}) | ${[50, 95, 99].map((p) => percentile(all, p).toFixed(1)).join(' / ')} / ${all.at(-1)!.toFixed(1)} | ${(all.length / seconds).toFixed(1)} | ${((cpu / all.length) * 1000).toFixed(1)} | ${perRole} | ${isReference ? '—' : `${p50Ratios.map((x) => `×${x.toFixed(2)}`).join(', ')} (**×${median(p50Ratios).toFixed(2)}**)`} | ${isReference ? '—' : `×${median(p99Ratios).toFixed(2)}`} | ${isReference ? '—' : `×${median(rateRatios).toFixed(2)}`} | ${isReference ? '—' : `×${median(cpuRatios).toFixed(2)}`} | ${load} |`,
				);
				for (const round of own) for (const [status, body] of round.bodies) problems.push(`${t.name}, ${inFlight} in flight: HTTP ${status} ${body}`);
			}
			console.log(lines.splice(0).join('\n'));
		}
		const counts: string[] = [];
		const executions = new Map<string, number>();
		for (const t of TARGETS) {
			executions.set(t.workflowId, (await settledCount(deployment, t.workflowId)) - before.get(t.workflowId)!);
			counts.push(`${t.name}: ${executions.get(t.workflowId)} successful executions for ${sent.get(t.workflowId)} deliveries`);
		}
		console.log([`executions (n8n REST API): ${counts.join('; ')}`, ...problems].join('\n'));
		expect(problems).toEqual([]);
		expect(Object.fromEntries(executions)).toEqual(Object.fromEntries(sent));
	} finally {
		await deployment.close();
	}
}

/** BENCH_TRIGGER_MODES=regular,queue (the default: regular only; queue mode starts 5 n8n processes on Postgres + Redis). */
const modes = (process.env.BENCH_TRIGGER_MODES ?? 'regular').split(',') as Mode[];
/** BENCH_TRIGGER_ENGINE=eager or lazy runs one setting only. */
const settings = [false, true].filter((lazy) => (process.env.BENCH_TRIGGER_ENGINE ?? (lazy ? 'lazy' : 'eager')) === (lazy ? 'lazy' : 'eager'));

describe('bench:trigger, the trigger vs n8n\'s Webhook node', () => {
	for (const mode of modes) {
		for (const lazy of settings) it(`${mode} mode, ${lazy ? 'lazy acquisition' : "eager (n8n's default)"}`, () => bench(mode, lazy), 1_800_000);
	}
});
