// `record`'s memory does not grow with the account: the built CLI clones an account of N job pages and one of 10·N,
// each from a mock upstream, its heap sampled after full collections (bench/record-memory-probe.mts). Holding the
// records would grow the heap by more than their size in the file; the walk holds each list's place and the
// writer each id's fingerprint (11–23 bytes an id, src/clone/id-set.mts). `npm run bench:mock-record` measures a
// million jobs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { CLI } from './cli-process.mts';
import { DEMO_TOKEN } from './harness.mts';

const PROBE = join(__dirname, '../bench/record-memory-probe.mts');
const SMALL = 2_000;
const LARGE = 10 * SMALL;

let dir: string;
const upstreams: RunningMockServer[] = [];
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'mock-record-memory-'));
});
afterAll(async () => {
	await Promise.all(upstreams.map((u) => u.close()));
	rmSync(dir, { recursive: true, force: true });
});

async function recordOf(jobs: number): Promise<{ heap: number; fileBytes: number; stdout: string }> {
	const upstream = await startMockServer({ port: 0, seed: 5, sources: 40, jobs, signals: 100, rateLimit: 0 });
	upstreams.push(upstream);
	const out = join(dir, `clone-${jobs}.json`);
	const probe = join(dir, `probe-${jobs}.json`);
	const child = spawn(process.execPath, ['--expose-gc', '--import', PROBE, CLI, 'record', '--from', upstream.apiUrl, '--token', DEMO_TOKEN, '--out', out], {
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, RECORD_PROBE_OUT: probe, RECORD_PROBE_EVERY_MS: '250' },
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	expect(status, stderr).toBe(0);
	// V8's heap, where records held would be (objects and strings). Not the array buffers: the fingerprint table
	// (bounded above) and I/O buffers in flight, whose peak a sample catches or not (one run here: 8 MB apart).
	const { peakHeapAfterGc, samples } = JSON.parse(readFileSync(probe, 'utf8')) as { peakHeapAfterGc: number; samples: number };
	expect(samples).toBeGreaterThan(2);
	return { heap: peakHeapAfterGc, fileBytes: statSync(out).size, stdout };
}

describe('record\'s memory', () => {
	it(`does not grow with the account: ${LARGE / 100} job pages hold no more heap than ${SMALL / 100} do`, async () => {
		const small = await recordOf(SMALL);
		const large = await recordOf(LARGE);
		expect(small.stdout).toContain(`, ${SMALL} jobs,`);
		expect(large.stdout).toContain(`, ${LARGE} jobs,`);
		const addedBytes = large.fileBytes - small.fileBytes;
		const growth = large.heap - small.heap;
		console.log(`[measured] peak heap after GC: ${(small.heap / 2 ** 20).toFixed(1)} MB for ${SMALL} jobs, ${(large.heap / 2 ** 20).toFixed(1)} MB for ${LARGE} (the file ${(addedBytes / 2 ** 20).toFixed(1)} MB larger)`);
		// Records held take more heap than their JSON (addedBytes). A sample may catch the constant working set (a page in
		// hand and its parse, the writer's 1 MB chunk) in one run and miss it in the other: 2.8 MB apart once, under
		// load. Half the added JSON leaves room for that and still fails if half the records were held.
		expect(growth).toBeLessThan(addedBytes / 2);
	}, 180_000);
});
