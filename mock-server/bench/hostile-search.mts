/**
 * Hostile job searches beside normal clients: the normal clients' latency
 * (p50, p99, max) and the longest the mock's event loop was held, for one or
 * more builds of the mock side by side in one run (before and after a change).
 * The longest block is given twice: wall-clock (monitorEventLoopDelay, which a
 * busy machine stretches) and as the main thread's CPU time between two ticks
 * of a 2 ms timer (what the mock itself held the loop for).
 *
 *   node mock-server/bench/hostile-search.mts NAME=DIST [NAME=DIST ...]
 *   e.g. old=/tmp/old/mock-server/dist new=mock-server/dist
 *
 * Each build runs in its own child process with the default data set (100,000
 * jobs), rate limit off, its event loop watched by monitorEventLoopDelay. The
 * builds take turns (ROUNDS rounds of DURATION_MS each), so machine noise falls
 * on all of them alike. Hostile searches come from fast-check with a fixed seed
 * (the same ones for every build): thousands of terms, one-letter terms, long
 * terms, odd characters; their answers may be anything (a 400 is the point).
 * Node 24 runs this file as it is (type stripping); it imports no mock code.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { buildsFromArgs } from './builds.mts';
import { runRole } from './roles.mts';
import { Agent } from 'node:http';
import { ask, get, percentile, runWatchedMock, type LoopReport, type Message } from './watched-mock.mts';
import fc from 'fast-check';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const NORMAL_CLIENTS = 8;
const HOSTILE_CLIENTS = 4;
const MAX_TARGET = 8000;

/** Child role: one build of the mock, its event loop watched. */
const runMock = (dist: string) => runWatchedMock(dist);

/** The issue's search, 2,000 one-letter OR terms, made unique per request (a repeated search is answered from the cache). */
function issueSearches(): string[] {
	return Array.from({ length: 200 }, (_, n) => `/v2/jobs?search=${encodeURIComponent(`${Array.from({ length: 2000 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[(i + n) % 26]).join('|')}|q${n}`)}`);
}

/** The same hostile searches for every build. */
function hostileSearches(): string[] {
	const oneLetter = 'abcdefghijklmnopqrstuvwxyz';
	const letter = fc.constantFrom(...`${oneLetter}é1 -.`.split(''));
	const word = fc.oneof(letter, fc.string({ unit: letter, minLength: 1, maxLength: 3 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }), fc.string({ unit: letter, minLength: 150, maxLength: 600 }));
	const joined = fc
		.array(fc.tuple(fc.constantFrom(',', '|', '+', ' ', ',-', '+-'), word), { minLength: 1, maxLength: 3000 })
		.map((parts) => parts.map(([separator, w], i) => (i === 0 ? w : `${separator}${w}`)).join(''));
	const fixed = [
		// The issue's search: 2,000 one-letter OR terms.
		Array.from({ length: 2000 }, (_, i) => oneLetter[i % 26]).join('|'),
		Array.from({ length: 2000 }, (_, i) => oneLetter[i % 26]).join(','),
		Array.from({ length: 100 }, (_, i) => 'etaoinshrdlu'[i % 12]).join('|'),
		'e'.repeat(4000),
		Array.from({ length: 1000 }, (_, i) => `${oneLetter[i % 26]} ${oneLetter[(i * 7) % 26]}`).join('|'),
	];
	const sampled = fc.sample(joined, { numRuns: 60, seed: 19 });
	return [...fixed, ...sampled].map((s) => `/v2/jobs?search=${encodeURIComponent(s)}`).filter((path) => path.length <= MAX_TARGET);
}

const NORMAL = ['/v2/jobs/filters', '/v2/collections', '/v2/jobs?search=python', '/v2/jobs?search=engineer&offset=100', '/v2/jobs?locations=berlin'];

async function phase(port: number, child: ChildProcess, hostile: readonly string[]) {
	const normalAgent = new Agent({ keepAlive: true, maxSockets: NORMAL_CLIENTS });
	const hostileAgent = new Agent({ keepAlive: true, maxSockets: HOSTILE_CLIENTS });
	// Warm the normal searches' cache, as a steady client would have.
	for (const path of NORMAL) await get(normalAgent, port, path);
	await ask(child, { kind: 'loop-reset' });
	const deadline = performance.now() + DURATION_MS;
	const latencies: number[] = [];
	const statuses = new Map<number, number>();
	let hostileDone = 0;
	let next = 0;
	// A keep-alive socket the mock closed while it was blocked (node's 5 s keep-alive timeout) resets: counted, then retried.
	let resets = 0;
	const normal = async (n: number) => {
		for (let i = n; performance.now() < deadline; i++) {
			const t = performance.now();
			const answer = await get(normalAgent, port, NORMAL[i % NORMAL.length]).catch(() => undefined);
			if (answer === undefined) {
				resets++;
				continue;
			}
			if (answer.status !== 200) throw new Error(`${NORMAL[i % NORMAL.length]}: HTTP ${answer.status}`);
			latencies.push(performance.now() - t);
		}
	};
	const attacker = async () => {
		while (performance.now() < deadline) {
			const answer = await get(hostileAgent, port, hostile[next++ % hostile.length]).catch(() => ({ status: 0 }));
			statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
			hostileDone++;
		}
	};
	await Promise.all([...Array.from({ length: NORMAL_CLIENTS }, (_, i) => normal(i)), ...Array.from({ length: HOSTILE_CLIENTS }, attacker)]);
	const loop = (await ask(child, { kind: 'loop?' }, 'loop')) as LoopReport;
	normalAgent.destroy();
	hostileAgent.destroy();
	latencies.sort((a, b) => a - b);
	return { resets, normal: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] ?? 0, hostile: hostileDone, statuses: Object.fromEntries(statuses), loopMaxMs: loop.maxMs, loopP99Ms: loop.p99Ms, loopMaxCpuMs: loop.maxCpuMs, maxGcMs: loop.maxGcMs };
}

async function main(): Promise<void> {
	const builds = buildsFromArgs('mock-server/bench/hostile-search.mts');
	const scenarios = [
		{ name: 'fuzzed', hostile: hostileSearches() },
		{ name: 'issue', hostile: issueSearches() },
	];
	const running = [];
	for (const build of builds) {
		const child = fork(process.argv[1], ['--mock', build.dist], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
		children.push(child);
		const ready = await new Promise<Message>((done) => child.once('message', done));
		running.push({ ...build, child, port: (ready as Extract<Message, { kind: 'ready' }>).port });
	}
	console.log(
		`${NORMAL_CLIENTS} normal clients beside ${HOSTILE_CLIENTS} hostile ones; hostile searches: "fuzzed" (${scenarios[0].hostile.length} from fast-check, seed 19, and the issue's), "issue" (2,000 one-letter OR terms, each request unique); ${ROUNDS} rounds of ${DURATION_MS} ms per build and scenario`,
	);
	const fmt = (n: number) => n.toFixed(1);
	for (let round = 1; round <= ROUNDS; round++) {
		for (const scenario of scenarios) for (const build of running) {
			const r = await phase(build.port, build.child, scenario.hostile);
			console.log(
				`round ${round} ${scenario.name.padEnd(6)} ${build.name.padEnd(6)} normal: ${r.normal} requests (${r.resets} reset), p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms, max ${fmt(r.max)} ms | hostile: ${r.hostile} answered ${JSON.stringify(r.statuses)} | mock event loop: max block ${fmt(r.loopMaxMs)} ms wall, ${fmt(r.loopMaxCpuMs)} ms main-thread CPU (longest GC pause ${fmt(r.maxGcMs)} ms); p99 delay ${fmt(r.loopP99Ms)} ms`,
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
