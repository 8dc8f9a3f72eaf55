// The built OpenAPI documents (openapi.json, openapi-control.json: run `npm run build -w mock-server` before this file
// alone) under Redocly CLI's recommended rules, as redocly.yaml configures them: no error, no warning. The one rule
// redocly.yaml turns off finds only the pair it names, and the mock routes that pair as the document says.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService, type MockService } from '../src/service.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';

const MOCK = fileURLToPath(new URL('..', import.meta.url));
const REDOCLY = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
const DOCUMENTS = ['openapi.json', 'openapi-control.json'];

interface Problem {
	ruleId: string;
	severity: 'error' | 'warn';
	message: string;
}
interface LintResult {
	totals: { errors: number; warnings: number; ignored: number };
	problems: Problem[];
}

/** `redocly lint --format json` of one built document with this config. */
async function lint(document: string, config: string): Promise<LintResult> {
	const run = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', document, '--config', config, '--format', 'json'], {
		cwd: MOCK,
		// No usage report and no look-up of a newer version: the run stays on this machine.
		env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
	}).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
	return JSON.parse(run.stdout) as LintResult;
}

let scratch: string;
let recommended: string;
beforeAll(() => {
	scratch = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
	recommended = join(scratch, 'redocly.yaml');
	writeFileSync(recommended, 'extends:\n  - recommended\ntelemetry: off\n');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the OpenAPI documents under Redocly's recommended rules", () => {
	it.each(DOCUMENTS)('%s: no error, no warning (redocly.yaml)', async (document) => {
		const result = await lint(document, 'redocly.yaml');
		expect(result.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
		expect(result.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
	});

	it('with every recommended rule on, the only problem is the pair redocly.yaml explains (so the lint does find problems)', async () => {
		const service = await lint('openapi.json', recommended);
		expect(service.problems.map((p) => [p.ruleId, p.message])).toEqual([
			['no-ambiguous-paths', 'Paths should resolve unambiguously. Found two ambiguous paths: `/sources/{url_source}/jobs` and `/sources/id/{source_id}`.'],
		]);
		expect((await lint('openapi-control.json', recommended)).problems).toEqual([]);
	});
});

describe('/v2/sources/id/jobs, which both paths fit, is the source with id "jobs" (a domain always has a dot)', () => {
	let service: MockService;
	beforeAll(async () => {
		const source = {
			source_id: 'jobs', url_source: 'jobs-inc.example', name: 'Jobs Inc', description: '', location: 'Berlin', url_logo: 'https://jobs-inc.example/logo.png',
			industry_tags: [], count_jobbard_jobs_success_at: 1_790_000_000, created_at: 1_790_000_000, updated_at: 1_790_000_000,
		};
		service = await createMockService({ ...SMALL, data: { sources: [source] } });
	});
	afterAll(() => service.close());
	const get = async (path: string) => {
		const response = await getResponse(service.handlers, new Request(`http://mock.test/v2${path}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } }));
		return { status: response?.status, body: (await response?.json()) as Record<string, unknown> };
	};

	it('answers that source, and its jobs at /v2/sources/id/jobs/jobs', async () => {
		const byId = await get('/sources/id/jobs');
		expect(byId.status).toBe(200);
		expect(byId.body).toMatchObject({ source_id: 'jobs', url_source: 'jobs-inc.example' });
		expect((await get('/sources/jobs-inc.example')).body.source_id).toBe('jobs');
		const jobs = await get('/sources/id/jobs/jobs');
		expect(jobs.status).toBe(200);
		expect(jobs.body.data).toEqual([]);
	});
});
