/**
 * CPU time of the usual cycle at the default data size (100,000
 * jobs), called in-process as the --cycle-interval timer calls it, for one or
 * more builds of the mock side by side in one run (before and after a change):
 *
 *   node mock-server/bench/cycle-cpu.mts NAME=DIST [NAME=DIST ...]
 *
 * Each build runs in its own child process. The builds take turns (ROUNDS
 * rounds); a round warms up with one cycle, then times CYCLES cycles by the
 * process's CPU time (other processes on the machine do not count; V8's
 * collector threads do). Printed per build and round: median and quartiles,
 * in ms. Node 24 runs this file as it is; it imports no mock code.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { buildsFromArgs } from './builds.mts';
import { runRole } from './roles.mts';
import { percentile } from './watched-mock.mts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 27);

interface Service {
	processCycle(): Promise<unknown>;
	close(): void;
}

/** Child role: one build, in-process; answers a round's CPU times, sorted. */
async function runMock(dist: string): Promise<void> {
	const { createMockService } = (await import(resolve(dist, 'index.js'))) as { createMockService: (o: object) => Promise<Service> };
	const service = await createMockService({ rateLimit: 0, cycleInterval: 0 });
	process.send?.('ready');
	process.on('message', async () => {
		await service.processCycle();
		const ms: number[] = [];
		for (let i = 0; i < CYCLES; i++) {
			const before = process.cpuUsage();
			await service.processCycle();
			const used = process.cpuUsage(before);
			ms.push((used.user + used.system) / 1000);
		}
		process.send?.(ms.sort((a, b) => a - b));
	});
	process.once('disconnect', () => process.exit(0));
}

async function main(): Promise<void> {
	const builds = buildsFromArgs('mock-server/bench/cycle-cpu.mts');
	const children = await Promise.all(
		builds.map(async (build) => {
			const child = fork(process.argv[1], ['--mock', build.dist], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
			await new Promise((done) => child.once('message', done));
			return { build, child };
		}),
	);
	console.log(`the usual cycle, default data size: CPU ms per cycle over ${CYCLES} cycles (p25 / median / p75)`);
	for (let round = 1; round <= ROUNDS; round++) {
		for (const { build, child } of children) {
			const ms = await new Promise<number[]>((done) => {
				child.once('message', (m) => done(m as number[]));
				child.send('round');
			});
			const f = (p: number) => percentile(ms, p).toFixed(1);
			console.log(`round ${round} ${build.name.padEnd(6)} ${f(25)} / ${f(50)} / ${f(75)}`);
		}
	}
	for (const { child } of children) child.disconnect();
}

runRole(runMock, main);
