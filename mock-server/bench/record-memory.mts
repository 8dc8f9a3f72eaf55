/**
 * `record`'s memory on a large account: the built CLI clones the demo account of a mock serving
 * the generated data set with JOBS jobs (default 1,000,000; 2,000 sources, SIGNALS signals, no rate
 * limit), and of one with a hundredth of the jobs, side by side in one run. Each `record` runs with
 * bench/record-memory-probe.mts: its peak heap after full collections (sampled each second; alone,
 * and with the array buffers) and its peak RSS. Printed per account: pages, jobs written, the file's size, the time, both peaks,
 * and the load average.
 *
 *   npm run bench:mock-record        (BENCH_JOBS=N and BENCH_SIGNALS=N to change the sizes)
 *
 * Node 24 runs this file as it is; it imports no mock code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 10_000);
const CLI = resolve(import.meta.dirname, '../dist/cli.js');
const PROBE = resolve(import.meta.dirname, 'record-memory-probe.mts');
const DEMO_TOKEN = 'demo-token-job-signals';

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** A mock over HTTP with `jobs` jobs, in a child process; its API base URL once it serves. */
async function upstream(jobs: number): Promise<{ child: ChildProcess; apiUrl: string }> {
	const child = spawn(process.execPath, [CLI, '--port', '0', '--sources', '2000', '--jobs', String(jobs), '--signals', String(SIGNALS), '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
	let out = '';
	const apiUrl = await new Promise<string>((resolveUrl, reject) => {
		child.stdout?.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const match = /API base URL: (\S+)\n/.exec(out);
			if (match) resolveUrl(match[1]);
		});
		child.once('exit', (code) => reject(new Error(`the upstream mock exited (${code}) before serving: ${out}`)));
	});
	return { child, apiUrl };
}

async function recordOf(jobs: number, dir: string): Promise<void> {
	const started = performance.now();
	const { child: mock, apiUrl } = await upstream(jobs);
	const ready = ((performance.now() - started) / 1000).toFixed(0);
	const out = join(dir, `clone-${jobs}.json`);
	const probe = join(dir, `probe-${jobs}.json`);
	const t = performance.now();
	const record = spawn(process.execPath, ['--expose-gc', '--import', PROBE, CLI, 'record', '--from', apiUrl, '--token', DEMO_TOKEN, '--out', out], {
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, RECORD_PROBE_OUT: probe, RECORD_PROBE_EVERY_MS: '1000' },
	});
	let stdout = '';
	let stderr = '';
	record.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	record.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
	const status = await new Promise<number | null>((done) => record.once('exit', done));
	const seconds = ((performance.now() - t) / 1000).toFixed(0);
	mock.kill();
	if (status !== 0) throw new Error(`record exited ${status}: ${stderr}`);
	const { peakHeapAfterGc, peakWithBuffers, maxRssBytes } = JSON.parse(readFileSync(probe, 'utf8')) as { peakHeapAfterGc: number; peakWithBuffers: number; maxRssBytes: number };
	const wrote = /^Wrote .*$/m.exec(stdout)?.[0] ?? stdout;
	console.log(`${String(jobs).padStart(9)} jobs: ${wrote}`);
	console.log(`${' '.repeat(16)}file ${mb(statSync(out).size)}; record ${seconds} s (upstream ready after ${ready} s); peak heap after GC ${mb(peakHeapAfterGc)} (with array buffers ${mb(peakWithBuffers)}), peak RSS ${mb(maxRssBytes)}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
	rmSync(out);
}

async function main(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'bench-record-'));
	try {
		console.log(`record of the demo account: 2,000 sources, ${SIGNALS} signals, and ${JOBS / 100} then ${JOBS} jobs (mock upstream, no rate limit)`);
		await recordOf(JOBS / 100, dir);
		await recordOf(JOBS, dir);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
