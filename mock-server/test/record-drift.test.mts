// The drift report over real HTTP, as a user runs the CLI: `record` and `check-drift` against a mock whose answers
// fit the contract (exit 0, nothing reported), and against the same mock with WireMock stubs (POST /__admin/mappings)
// answering the first page of the jobs with a renamed field and an extra one, and the first page of the changes
// signals with a value outside an enum (exit 4, each named with its endpoint, count and example).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { runCli } from './cli-process.mts';
import { VOLUME_TOKEN } from './harness.mts';

const DATA = { seed: 11, sources: 60, jobs: 300, signals: 600, rateLimit: 0 };

let upstream: RunningMockServer;
let dir: string;
beforeAll(async () => {
	upstream = await startMockServer({ ...DATA, port: 0 });
	dir = mkdtempSync(join(tmpdir(), 'mock-record-drift-'));
});
afterAll(async () => {
	await upstream.close();
	rmSync(dir, { recursive: true, force: true });
});

const run = async (args: string[]) => {
	const cli = runCli(args);
	const status = await cli.exited;
	return { status, ...cli.output() };
};
const from = () => ['--from', upstream.apiUrl, '--token', VOLUME_TOKEN];
/** The messages without the progress lines. */
const said = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('job-signals-mock record: ')).map((line) => line.slice('job-signals-mock record: '.length));
const get = async (path: string) => (await fetch(`${upstream.apiUrl}${path}`, { headers: { authorization: `Bearer ${VOLUME_TOKEN}` } })).json() as Promise<Record<string, unknown>>;

describe('an upstream that fits the contract', () => {
	it('record: the report says so, the JSON report lists nothing, exit 0', async () => {
		const out = join(dir, 'fits.json');
		const report = join(dir, 'fits-report.json');
		const result = await run(['record', ...from(), '--out', out, '--drift-report', report]);
		expect(result.status, result.stderr).toBe(0);
		expect(said(result.stderr)).toEqual([expect.stringMatching(/^the answers fit the contract \(\d+ pages checked\)$/)]);
		expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ fits: true, findings: [], unlisted: 0, max_paths: 100 });
	}, 60_000);

	it('check-drift: one page per list, the report on stdout, exit 0', async () => {
		const result = await run(['check-drift', ...from()]);
		expect(result.status, result.stderr).toBe(0);
		expect(result.stdout).toMatch(/^the answers fit the contract \(5 pages checked\)\n$/);
		expect(result.stderr).toBe('');
	}, 60_000);
});

describe('an upstream whose answers drift', () => {
	let renamedJob: string;
	let extraJob: string;
	let oddSignal: string;
	beforeAll(async () => {
		// The mock's own first pages, changed, each the list's only page (so the walk ends there).
		const jobs = await get('/jobs?offset=0');
		const data = jobs.data as Record<string, unknown>[];
		const { job_title, ...rest } = data[0];
		renamedJob = String(rest.job_id);
		extraJob = String(data[1].job_id);
		const drifted = [{ ...rest, title: job_title }, { ...data[1], salary: { min: 50000, currency: 'EUR' } }, ...data.slice(2)];
		const signals = await get('/signals/changes?page=1&per_page=1000&direct_only=false&active_only=false');
		const list = signals.signals as Record<string, unknown>[];
		oddSignal = String(list[0].signal_id);
		const pagination = { ...(signals.pagination as object), count_pages: 1, count_signals: list.length, has_next: false };
		const stubs = [
			{ request: { method: 'GET', urlPath: '/v2/jobs', queryParameters: { offset: { equalTo: '0' } } }, response: { status: 200, jsonBody: { ...jobs, data: drifted, metrics: { ...(jobs.metrics as object), count_jobs: drifted.length } } } },
			{ request: { method: 'GET', urlPath: '/v2/signals/changes', queryParameters: { page: { equalTo: '1' } } }, response: { status: 200, jsonBody: { ...signals, pagination, signals: [{ ...list[0], signal_classification: 'rumoured' }, ...list.slice(1)] } } },
		];
		for (const stub of stubs) {
			const answer = await fetch(`${upstream.appUrl}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(stub) });
			expect(answer.status).toBe(201);
		}
	});
	/** The JSON report's findings: each seen once (one record of one page). */
	const findings = [
		{ endpoint: 'GET /jobs', path: 'data[].job_title', kind: 'missing', count: 1, page: '/jobs?offset=0' },
		{ endpoint: 'GET /jobs', path: 'data[].salary', kind: 'added', count: 1, page: '/jobs?offset=0', value: '{"min":50000,"currency":"EUR"}' },
		{ endpoint: 'GET /jobs', path: 'data[].title', kind: 'added', count: 1, page: '/jobs?offset=0' },
		{ endpoint: 'GET /signals/{group}', path: 'signals[].signal_classification', kind: 'enum', count: 1, value: '"rumoured"', expected: '"direct", "inferred"' },
	].map((f) => expect.objectContaining(f));

	it('record: each finding with its endpoint, count and example; the file without the record that does not fit; exit 4', async () => {
		const out = join(dir, 'drifted.json');
		const report = join(dir, 'drifted-report.json');
		const result = await run(['record', ...from(), '--out', out, '--drift-report', report]);
		expect(result.status, result.stderr).toBe(4);
		const lines = said(result.stderr);
		expect(lines).toEqual(expect.arrayContaining([
			expect.stringMatching(/^the answers drift from the contract \(\d+ pages checked\):$/),
			'  GET /jobs',
			'    data[].job_title: missing (the contract wants string) (1×; e.g. /jobs?offset=0)',
			'    data[].salary: not in the contract, e.g. {"min":50000,"currency":"EUR"} (1×; e.g. /jobs?offset=0)',
			expect.stringMatching(/^ {4}data\[\]\.title: not in the contract, e\.g\. ".+" \(1×; e\.g\. \/jobs\?offset=0\)$/),
			'  GET /signals/{group}',
			'    signals[].signal_classification: "rumoured" is not one of "direct", "inferred" (1×; e.g. /signals/changes?page=1&per_page=1000&direct_only=false&active_only=false)',
		]));
		expect(lines.at(-1)).toBe(`the answers drift from the contract: 2 records that do not fit it were left out of ${out} (exit 4)`);
		const summary = JSON.parse(readFileSync(report, 'utf8')) as { fits: boolean; findings: unknown[] };
		expect(summary.fits).toBe(false);
		expect(summary.findings).toEqual(findings);
		// The file holds what fits: the renamed job and the odd signal left out, the extra field dropped.
		const file = JSON.parse(readFileSync(out, 'utf8')) as { jobs: { job_id: string }[]; signals: { signal_id: string }[] };
		expect(file.jobs.map((j) => j.job_id)).not.toContain(renamedJob);
		expect(file.jobs.find((j) => j.job_id === extraJob)).not.toHaveProperty('salary');
		expect(file.signals.map((s) => s.signal_id)).not.toContain(oddSignal);
		expect(result.stdout).toMatch(/^Wrote /);
	}, 60_000);

	it('check-drift: the same findings from one page per list, exit 4', async () => {
		const report = join(dir, 'check-report.json');
		const result = await run(['check-drift', ...from(), '--drift-report', report]);
		expect(result.status, result.stderr).toBe(4);
		expect(result.stdout.split('\n')).toEqual(expect.arrayContaining([
			'the answers drift from the contract (5 pages checked):',
			'    data[].job_title: missing (the contract wants string) (1×; e.g. /jobs?offset=0)',
			'    signals[].signal_classification: "rumoured" is not one of "direct", "inferred" (1×; e.g. /signals/changes?page=1&per_page=1000&direct_only=false&active_only=false)',
		]));
		expect((JSON.parse(readFileSync(report, 'utf8')) as { findings: unknown[] }).findings).toEqual(findings);
	}, 60_000);

	it('check-drift: a refused token exits 3, a base URL without /v2 exits 1 naming the fix', async () => {
		const refused = await run(['check-drift', '--from', upstream.apiUrl, '--token', 'wrong-token-123']);
		expect(refused.status).toBe(3);
		expect(refused.stderr).toMatch(/^job-signals-mock check-drift: the API refused the token: 400 /);
		const origin = new URL(upstream.apiUrl).origin;
		const bare = await run(['check-drift', '--from', origin, '--token', VOLUME_TOKEN]);
		expect(bare.status).toBe(1);
		expect(bare.stderr).toBe(`job-signals-mock check-drift: page 1 of the collections (/collections): the API answered 404 No such endpoint (is --from the API base URL? It must end in /v2, e.g. --from ${origin}/v2)\n`);
	}, 60_000);
});
