/**
 * Normal clients beside cycles of the allowed maximum (1,000 changes
 * of each kind, POST /__mock/process back to back), for one or more builds of
 * the mock side by side in one run (before and after a change):
 *
 *   node mock-server/bench/big-cycles.mts NAME=DIST [NAME=DIST ...]
 *
 * Each build runs in its own child process (default data set, rate limit off),
 * its event loop watched (watched-mock.mts). The builds take turns (ROUNDS
 * rounds of DURATION_MS each). Printed per build and round: the cycles done and
 * their mean time, the normal clients' latency (p50, p99, max: a request that
 * arrives during a cycle waits for it at the data gate, or for the blocked loop
 * before), and the mock's longest event-loop block (wall, main-thread CPU) and
 * longest GC pause. Node 24 runs this file as it is; it imports no mock code.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import { buildsFromArgs } from './builds.mts';
import { runRole } from './roles.mts';
import { ask, get, percentile, runWatchedMock, type LoopReport, type Message } from './watched-mock.mts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 15_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const NORMAL_CLIENTS = 4;
const BIGGEST = { created: 1000, updated: 1000, deleted: 1000, signals: 1000, domain_changes: 1000 };
const NORMAL = ['/v2/jobs/filters', '/v2/collections', '/v2/jobs?search=python', '/v2/signals/changes?per_page=100', '/v2/jobs?locations=berlin'];

const runMock = (dist: string) => runWatchedMock(dist);

async function cycle(port: number): Promise<number> {
	const t = performance.now();
	const response = await fetch(`http://127.0.0.1:${port}/__mock/process`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BIGGEST) });
	if (!response.ok) throw new Error(`POST /__mock/process: HTTP ${response.status}`);
	await response.arrayBuffer();
	return performance.now() - t;
}

async function phase(port: number, child: ChildProcess) {
	const agent = new Agent({ keepAlive: true, maxSockets: NORMAL_CLIENTS });
	for (const path of NORMAL) await get(agent, port, path);
	await ask(child, { kind: 'loop-reset' });
	const deadline = performance.now() + DURATION_MS;
	const latencies: number[] = [];
	const cycleMs: number[] = [];
	const normal = async (n: number) => {
		for (let i = n; performance.now() < deadline; i++) {
			const t = performance.now();
			const answer = await get(agent, port, NORMAL[i % NORMAL.length]);
			if (answer.status !== 200) throw new Error(`${NORMAL[i % NORMAL.length]}: HTTP ${answer.status}`);
			latencies.push(performance.now() - t);
		}
	};
	const cycles = async () => {
		while (performance.now() < deadline) cycleMs.push(await cycle(port));
	};
	await Promise.all([...Array.from({ length: NORMAL_CLIENTS }, (_, i) => normal(i)), cycles()]);
	const loop = (await ask(child, { kind: 'loop?' }, 'loop')) as LoopReport;
	agent.destroy();
	latencies.sort((a, b) => a - b);
	const meanCycle = cycleMs.reduce((sum, ms) => sum + ms, 0) / Math.max(1, cycleMs.length);
	return { cycles: cycleMs.length, meanCycle, normal: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? 0, loop };
}

async function main(): Promise<void> {
	const builds = buildsFromArgs('mock-server/bench/big-cycles.mts');
	const running = [];
	for (const build of builds) {
		const child = fork(process.argv[1], ['--mock', build.dist], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
		children.push(child);
		const ready = (await new Promise<Message>((done) => child.once('message', done))) as Extract<Message, { kind: 'ready' }>;
		running.push({ ...build, child, port: ready.port });
	}
	console.log(`${NORMAL_CLIENTS} normal clients beside back-to-back cycles of ${JSON.stringify(BIGGEST)}; ${ROUNDS} rounds of ${DURATION_MS} ms per build`);
	const fmt = (n: number) => n.toFixed(1);
	for (let round = 1; round <= ROUNDS; round++) {
		for (const build of running) {
			const r = await phase(build.port, build.child);
			console.log(
				`round ${round} ${build.name.padEnd(6)} cycles: ${r.cycles} (mean ${fmt(r.meanCycle)} ms) | normal: ${r.normal} requests, p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms, max ${fmt(r.max)} ms | mock event loop: max block ${fmt(r.loop.maxMs)} ms wall, ${fmt(r.loop.maxCpuMs)} ms main-thread CPU (longest GC pause ${fmt(r.loop.maxGcMs)} ms); p99 delay ${fmt(r.loop.p99Ms)} ms; heap ${r.loop.heapMb} MB`,
			);
		}
	}
	for (const build of running) build.child.send({ kind: 'stop' } satisfies Message);
}

/** The mocks must not outlive the benchmark, whichever way it ends. */
const children: ChildProcess[] = [];
process.on('exit', () => {
	for (const child of children) child.kill();
});

runRole(runMock, main);
