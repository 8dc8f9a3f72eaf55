/**
 * Two or more builds of the webhook trigger side by side, in one process: each delivery (the webhook function and
 * the execution it starts, through n8n-core as harness/in-process/trigger.mts runs them) goes to each build in turn,
 * the order reversed every other delivery, so whatever the machine does meanwhile falls on all alike. Reports the
 * CPU time (process.cpuUsage) and wall time per delivery of each build. For a change's cost per delivery, against a
 * build of an earlier commit (`git archive <commit> | tar -x -C <dir>`, node_modules linked, `npx n8n-node build`):
 *
 *   npx tsup bench/trigger-builds.mts --no-config --format cjs --external n8n-core --external n8n-workflow \
 *     --platform node --target node20 --out-dir node_modules/.cache/bench-trigger-builds --silent
 *   BUILDS=<dir>/dist,$PWD/dist node node_modules/.cache/bench-trigger-builds/trigger-builds.js
 *
 * BUILDS: the dist folders, comma-separated; BENCH_DELIVERIES (2,000) per build after 800 warm-up deliveries each
 * (the process window and the persisted window full, as on a busy trigger). Typeversion 1.1, every option default.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { INodeType } from 'n8n-workflow';
import { envelope } from '../harness/in-process/trigger-fixtures.mts';
import { createTrigger } from '../harness/in-process/trigger.mts';
import { percentile } from './percentiles.mts';

const builds = (process.env.BUILDS ?? '').split(',').filter((dir) => dir !== '');
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 2000);
const WARM_UP = 800;

const mean = (values: number[]) => values.reduce((sum, n) => sum + n, 0) / values.length;
const summary = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	return `p50 ${percentile(sorted, 50).toFixed(3)} / p90 ${percentile(sorted, 90).toFixed(3)} / p99 ${percentile(sorted, 99).toFixed(3)}, mean ${mean(sorted).toFixed(3)} ms`;
};

async function main() {
	if (builds.length === 0) throw new Error('BUILDS: give the dist folders to compare, comma-separated');
	const triggers = builds.map((dir) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const built = require(`${dir}/nodes/JobSignalsTrigger/JobSignalsTrigger.node.js`) as { JobSignalsTrigger: new () => INodeType };
		return createTrigger({ nodeType: new built.JobSignalsTrigger(), typeVersion: 1.1 });
	});
	const body = () => envelope('job_created', { webhook_event_id: `whe_${randomUUID()}` });
	for (const trigger of triggers) for (let i = 0; i < WARM_UP; i++) await trigger.deliver({ body: body() });
	const cpu: number[][] = triggers.map(() => []);
	const wall: number[][] = triggers.map(() => []);
	const loadBefore = loadavg()[0];
	for (let i = 0; i < DELIVERIES; i++) {
		for (let k = 0; k < triggers.length; k++) {
			const j = i % 2 === 0 ? k : triggers.length - 1 - k;
			const cpuBefore = process.cpuUsage();
			const started = performance.now();
			const answer = await triggers[j].deliver({ body: body() });
			wall[j].push(performance.now() - started);
			const used = process.cpuUsage(cpuBefore);
			cpu[j].push((used.user + used.system) / 1000);
			if (answer.status !== 200 || answer.emitted?.length !== 1) throw new Error(`${builds[j]}: answer ${answer.status}, ${answer.emitted?.length ?? 0} emitted`);
		}
	}
	const lines = [`trigger builds side by side, ${DELIVERIES} deliveries each after ${WARM_UP} warm-up, interleaved; load average (1 min) ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`];
	builds.forEach((dir, j) => lines.push(`${dir}: CPU ${summary(cpu[j])}; wall ${summary(wall[j])}; mean CPU ÷ first build ×${(mean(cpu[j]) / mean(cpu[0])).toFixed(2)}`));
	console.log(lines.join('\n'));
}

void main();
