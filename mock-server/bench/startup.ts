/**
 * The mock's start-up against its data size: each size in a fresh child
 * process (so no size inherits another's heap), timed from the call to
 * `startMockServer` until it listens, with the process's CPU time, its peak
 * RSS and the V8 heap after a full garbage collection. Part of
 * `npm run bench:mock` (at 1× and 10× the default 100,000 jobs + 100,000
 * signals); other multiples: `node <bundle>/startup.js 1 3 10`.
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { DEFAULT_OPTIONS } from '../src/options.ts';
import { startMockServer } from '../src/server.ts';

interface Measured {
	jobs: number;
	signals: number;
	startMs: number;
	cpuMs: number;
	peakRssMb: number;
	heapMb: number;
}

const mb = (bytes: number) => Math.round(bytes / 1e6);

/** Child role: starts the mock with the given sizes, reports, exits. */
async function runChild(jobs: number, signals: number): Promise<void> {
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

function measure(multiple: number): Promise<Measured> {
	const jobs = DEFAULT_OPTIONS.jobs * multiple;
	const signals = DEFAULT_OPTIONS.signals * multiple;
	const child = fork(process.argv[1], ['--role=child', String(jobs), String(signals)], { execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
	return new Promise((resolve, reject) => {
		child.once('message', (message) => resolve(message as Measured));
		child.once('exit', (code) => reject(new Error(`start-up child (${multiple}×) exited (${code}) before reporting`)));
	});
}

/** Measures each multiple of the default data set in turn and prints one table row per size. */
async function benchStartup(multiples: number[]): Promise<Measured[]> {
	const results: Measured[] = [];
	console.log('\nStart-up against data size (each in a fresh process)');
	console.log('| data | start-up | CPU | peak RSS | heap after GC | load average (1 min) |');
	console.log('|---|---|---|---|---|---|');
	for (const multiple of multiples) {
		const result = await measure(multiple);
		results.push(result);
		console.log(
			`| ${result.jobs.toLocaleString('en')} jobs + ${result.signals.toLocaleString('en')} signals | ${(result.startMs / 1000).toFixed(1)} s | ${(result.cpuMs / 1000).toFixed(1)} s | ${result.peakRssMb} MB | ${result.heapMb} MB | ${loadavg()[0].toFixed(1)} |`,
		);
	}
	const [first, last] = [results[0], results.at(-1)!];
	if (results.length > 1) {
		const size = multiples.at(-1)! / multiples[0];
		console.log(`×${size} the data: start-up ×${(last.startMs / first.startMs).toFixed(1)}, CPU ×${(last.cpuMs / first.cpuMs).toFixed(1)}, peak RSS ×${(last.peakRssMb / first.peakRssMb).toFixed(1)}, heap ×${(last.heapMb / first.heapMb).toFixed(1)}`);
	}
	return results;
}

const role = process.argv.find((a) => a.startsWith('--role='));
if (role === '--role=child') {
	const [jobs, signals] = process.argv.slice(-2).map(Number);
	await runChild(jobs, signals);
} else {
	const multiples = process.argv.slice(2).map(Number);
	await benchStartup(multiples.length > 0 ? multiples : [1, 10]);
}
