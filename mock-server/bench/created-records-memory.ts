/**
 * Memory of a long-running mock whose cycles create records: CYCLES cycles of
 * 1,000 created jobs and 1,000 new signals each (POST /__mock/process), for one
 * or more builds side by side in one run (before and after a change):
 *
 *   node mock-server/bench/created-records-memory.ts NAME=DIST [NAME=DIST ...]
 *
 * Each build runs in its own child process (default data set, rate limit off,
 * `--max-created-records` CAP where the build has it; an older build ignores
 * the option), started with --expose-gc so the heap is read after a full
 * collection. Printed every EVERY cycles: heap after GC, RSS, jobs and signals
 * held. Node 24 runs this file as it is; it imports no mock code.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { buildsFromArgs } from './builds.ts';
import { runRole } from './roles.ts';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 40);
const EVERY = Number(process.env.BENCH_EVERY ?? 10);
const CAP = Number(process.env.BENCH_CAP ?? 5000);
const GROWTH = { created: 1000, updated: 0, deleted: 0, signals: 1000, domain_changes: 0 };

type Message =
	| { kind: 'ready'; port: number }
	| { kind: 'memory?' }
	| { kind: 'memory'; rssMb: number; heapMb: number; jobs: number; signals: number }
	| { kind: 'stop' };

interface Service {
	store: { jobs: Map<string, unknown>; signals: unknown[] };
}

async function runMock(dist: string): Promise<void> {
	const { startMockServer } = (await import(resolve(dist, 'index.js'))) as { startMockServer: (o: object) => Promise<{ appUrl: string; service: Service }> };
	const server = await startMockServer({ port: 0, rateLimit: 0, maxCreatedRecords: CAP });
	process.send?.({ kind: 'ready', port: Number(new URL(server.appUrl).port) } satisfies Message);
	process.once('disconnect', () => process.exit(0));
	process.on('message', (message: Message) => {
		if (message.kind === 'memory?') {
			(globalThis as { gc?: () => void }).gc?.();
			const { rss, heapUsed } = process.memoryUsage();
			const { store } = server.service;
			process.send?.({ kind: 'memory', rssMb: Math.round(rss / 1e6), heapMb: Math.round(heapUsed / 1e6), jobs: store.jobs.size, signals: store.signals.length } satisfies Message);
		}
		if (message.kind === 'stop') process.exit(0);
	});
}

async function main(): Promise<void> {
	const builds = buildsFromArgs('mock-server/bench/created-records-memory.ts');
	console.log(`${CYCLES} cycles of ${JSON.stringify(GROWTH)}; maxCreatedRecords ${CAP} (builds that have it)`);
	for (const build of builds) {
		const child = fork(process.argv[1], ['--mock', build.dist], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: ['--expose-gc'] });
		const ready = (await new Promise<Message>((done) => child.once('message', done))) as Extract<Message, { kind: 'ready' }>;
		const memory = () =>
			new Promise<Extract<Message, { kind: 'memory' }>>((done) => {
				child.once('message', (m: Message) => done(m as Extract<Message, { kind: 'memory' }>));
				child.send({ kind: 'memory?' } satisfies Message);
			});
		const line = async (label: string) => {
			const m = await memory();
			console.log(`${build.name.padEnd(6)} ${label.padEnd(10)} heap after GC ${m.heapMb} MB, RSS ${m.rssMb} MB, jobs ${m.jobs}, signals ${m.signals}`);
		};
		await line('started');
		for (let cycle = 1; cycle <= CYCLES; cycle++) {
			const response = await fetch(`http://127.0.0.1:${ready.port}/__mock/process`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(GROWTH) });
			if (!response.ok) throw new Error(`POST /__mock/process: HTTP ${response.status}`);
			await response.arrayBuffer();
			if (cycle % EVERY === 0) await line(`cycle ${cycle}`);
		}
		child.send({ kind: 'stop' } satisfies Message);
		await new Promise((done) => child.once('exit', done));
	}
}

runRole(runMock, main);
