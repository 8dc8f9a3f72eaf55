/**
 * Memory of a long-running mock whose cycles create records: CYCLES cycles of
 * 1,000 created jobs and 1,000 new signals each (POST /__mock/process), for one
 * or more builds side by side in one run (before and after a change):
 *
 *   node mock-server/bench/created-records-memory.mts NAME=DIST [NAME=DIST ...]
 *
 * Each build runs in its own child process (default data set, rate limit off,
 * `--max-created-records` CAP where the build has it; an older build ignores
 * the option), started with --expose-gc so the heap is read after a full
 * collection. Printed every EVERY cycles: heap after GC, RSS, jobs and signals
 * held. Node 24 runs this file as it is; it imports no mock code.
 */
import { buildsFromArgs } from './builds.mts';
import { runMemoryMock, startMemoryMock } from './memory-child.mts';
import { runRole } from './roles.mts';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 40);
const EVERY = Number(process.env.BENCH_EVERY ?? 10);
const CAP = Number(process.env.BENCH_CAP ?? 5000);
const GROWTH = { created: 1000, updated: 0, deleted: 0, signals: 1000, domain_changes: 0 };

interface Service {
	store: { jobs: Map<string, unknown>; signals: unknown[] };
}

const runMock = (dist: string) =>
	runMemoryMock(dist, { maxCreatedRecords: CAP }, ({ store }: Service) => ({ jobs: store.jobs.size, signals: store.signals.length }));

async function main(): Promise<void> {
	const builds = buildsFromArgs('mock-server/bench/created-records-memory.mts');
	console.log(`${CYCLES} cycles of ${JSON.stringify(GROWTH)}; maxCreatedRecords ${CAP} (builds that have it)`);
	for (const build of builds) {
		const mock = await startMemoryMock(process.argv[1], build);
		const line = async (label: string) => {
			const m = await mock.memory();
			console.log(`${build.name.padEnd(6)} ${label.padEnd(10)} heap after GC ${m.heapMb} MB, RSS ${m.rssMb} MB, jobs ${m.facts.jobs}, signals ${m.facts.signals}`);
		};
		await line('started');
		for (let cycle = 1; cycle <= CYCLES; cycle++) {
			const response = await fetch(`${mock.appUrl}/__mock/process`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(GROWTH) });
			if (!response.ok) throw new Error(`POST /__mock/process: HTTP ${response.status}`);
			await response.arrayBuffer();
			if (cycle % EVERY === 0) await line(`cycle ${cycle}`);
		}
		await mock.stop();
	}
}

runRole(runMock, main);
