/**
 * The mock's start-up against its data size: each size in a fresh child
 * process (so no size inherits another's heap), timed from the call to
 * `startMockServer` until it listens, with the process's CPU time (user +
 * system, all threads: the garbage collector's helpers too), its peak RSS and
 * the V8 heap after a full garbage collection. Part of `npm run bench:mock` (at
 * 1× and 10× the default 100,000 jobs + 100,000 signals).
 *
 *   node <bundle>/startup.js [MULTIPLE ...] [NAME=DIST ...]
 *   e.g. 1 10 main=/tmp/main/mock-server/dist branch=mock-server/dist
 *
 * Without builds it measures this source tree. With builds (a label and a
 * mock's dist folder each) they take turns at each size, side by side in one
 * run, so the machine's load falls on all of them alike; BENCH_ROUNDS (default
 * 1) repeats every measurement, and the ratios use the median.
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { buildFromArg, type Build } from './builds.mts';
import { DEFAULT_OPTIONS } from '../src/options.mts';

interface Measured {
	jobs: number;
	signals: number;
	startMs: number;
	cpuMs: number;
	peakRssMb: number;
	heapMb: number;
}

type Start = (options: object) => Promise<{ close(): Promise<void> }>;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const THIS_TREE: Build = { name: 'this tree', dist: '' };
const mb = (bytes: number) => Math.round(bytes / 1e6);

/** Child role: starts the mock (this tree's, or the build's in `dist`) with the given sizes, reports, exits. */
async function runChild(jobs: number, signals: number, dist: string): Promise<void> {
	const { startMockServer } = (dist === '' ? await import('../src/server.mts') : await import(resolve(dist, 'index.js'))) as { startMockServer: Start };
	const cpu = process.cpuUsage();
	const started = performance.now();
	const server = await startMockServer({ port: 0, rateLimit: 0, jobs, signals });
	const startMs = performance.now() - started;
	const used = process.cpuUsage(cpu);
	// maxRSS is in kibibytes.
	const peakRssMb = mb(process.resourceUsage().maxRSS * 1024);
	(globalThis as { gc?: () => void }).gc?.();
	const heapMb = mb(process.memoryUsage().heapUsed);
	process.send?.({ jobs, signals, startMs, cpuMs: (used.user + used.system) / 1000, peakRssMb, heapMb } satisfies Measured);
	await server.close();
	process.exit(0);
}

function measure(multiple: number, build: Build): Promise<Measured> {
	const jobs = DEFAULT_OPTIONS.jobs * multiple;
	const signals = DEFAULT_OPTIONS.signals * multiple;
	const child = fork(process.argv[1], ['--role=child', String(jobs), String(signals), build.dist], { execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
	return new Promise((resolve, reject) => {
		child.once('message', (message) => resolve(message as Measured));
		child.once('exit', (code) => reject(new Error(`start-up child (${build.name}, ${multiple}×) exited (${code}) before reporting`)));
	});
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Measures each multiple of the default data set with each build in turn, one table row per measurement, then the ratios. */
async function benchStartup(multiples: number[], builds: Build[]): Promise<void> {
	const results = new Map<string, Measured[]>();
	console.log(`\nStart-up against data size (each in a fresh process; node ${process.version})`);
	console.log('| data | build | start-up | CPU | peak RSS | heap after GC | load average (1 / 5 min) |');
	console.log('|---|---|---|---|---|---|---|');
	for (const multiple of multiples) {
		for (let round = 0; round < ROUNDS; round++) {
			for (const build of builds) {
				const load = loadavg();
				const result = await measure(multiple, build);
				const key = `${build.name}|${multiple}`;
				results.set(key, [...(results.get(key) ?? []), result]);
				console.log(
					`| ${result.jobs.toLocaleString('en')} jobs + ${result.signals.toLocaleString('en')} signals | ${build.name} | ${(result.startMs / 1000).toFixed(1)} s | ${(result.cpuMs / 1000).toFixed(1)} s | ${result.peakRssMb} MB | ${result.heapMb} MB | ${load[0].toFixed(1)} / ${load[1].toFixed(1)} |`,
				);
			}
		}
	}
	const of = (build: Build, multiple: number, field: keyof Measured) => median(results.get(`${build.name}|${multiple}`)!.map((r) => r[field]));
	const [first, last] = [multiples[0], multiples.at(-1)!];
	if (multiples.length > 1) {
		for (const build of builds) {
			const ratio = (field: keyof Measured) => (of(build, last, field) / of(build, first, field)).toFixed(1);
			console.log(`${build.name}: ×${+(last / first).toPrecision(3)} the data gives start-up ×${ratio('startMs')}, CPU ×${ratio('cpuMs')}, peak RSS ×${ratio('peakRssMb')}, heap ×${ratio('heapMb')}`);
		}
	}
	for (const build of builds.slice(1)) {
		for (const multiple of multiples) {
			const ratio = (field: keyof Measured) => (of(build, multiple, field) / of(builds[0], multiple, field)).toFixed(2);
			console.log(`${build.name} / ${builds[0].name} at ${multiple}×: CPU ×${ratio('cpuMs')}, peak RSS ×${ratio('peakRssMb')}, heap ×${ratio('heapMb')}`);
		}
	}
}

const role = process.argv.find((a) => a.startsWith('--role='));
if (role === '--role=child') {
	const [jobs, signals] = process.argv.slice(3, 5).map(Number);
	await runChild(jobs, signals, process.argv[5]);
} else {
	const args = process.argv.slice(2);
	const multiples = args.filter((a) => !a.includes('=')).map(Number);
	const builds = args.filter((a) => a.includes('=')).map(buildFromArg);
	if (multiples.some((m) => !(m > 0))) throw new Error(`multiples must be numbers above 0, got ${args.join(' ')}`);
	await benchStartup(multiples.length > 0 ? multiples : [1, 10], builds.length > 0 ? builds : [THIS_TREE]);
}
