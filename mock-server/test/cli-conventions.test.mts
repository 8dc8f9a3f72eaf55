// The built CLI's --data, --rate-limit-headers and --cors-origin: served over HTTP with good values; exit 2 naming the record for a bad data file (bad flag values: cli.test.mts; the options themselves: data-file, rate-limit-headers and cors tests).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHOICES, MOCK_CONTROL_PATHS, sourceSchema } from '../src/base/contract.mts';
import { CLI, runCli, type CliProcess } from './cli-process.mts';
import { DEMO_TOKEN } from './harness.mts';

const EXAMPLE = join(__dirname, '../../mock-server/examples/data.json');
const SMALL_FLAGS = ['--port', '0', '--sources', '20', '--jobs', '200', '--signals', '200'];
const running: CliProcess[] = [];
const start = (args: string[]) => {
	const cli = runCli(args);
	running.push(cli);
	return cli;
};
const auth = { authorization: `Bearer ${DEMO_TOKEN}` };

beforeAll(() => {
	if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
});
afterEach(() => {
	for (const cli of running.splice(0)) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
});

describe('CLI conventions', () => {
	it('--data serves the example file\'s records, instead of the seed with --sources 0, and says so', async () => {
		const cli = start(['--port', '0', '--sources', '0', '--data', EXAMPLE]);
		const [, apiUrl] = await cli.waitFor(/API base URL: (\S+)\n/);
		await cli.waitFor(/Data file: +\S+data\.json\n/);
		expect(cli.output().stdout).toMatch(/\(2 sources, 3 jobs, 1 signals\)/);
		const source = await fetch(`${apiUrl}/sources/acme-robotics.com`, { headers: auth });
		expect(source.status).toBe(200);
		expect(sourceSchema.strict().parse(await source.json())).toMatchObject({ source_id: 'src_acme', count_jobboard_jobs: 2 });
		cli.child.kill('SIGTERM');
		expect(await cli.exited).toBe(0);
	});

	it('--rate-limit-headers off drops the X-RateLimit-* headers but keeps the limit and Retry-After; --cors-origin answers that origin only, and says so at start', async () => {
		const app = 'http://localhost:5173';
		const cli = start([...SMALL_FLAGS, '--rate-limit', '1', '--rate-limit-headers=off', '--cors-origin', app]);
		const [, apiUrl, appUrl] = await cli.waitFor(/API base URL: (\S+)\nApp URL: +(\S+)\n[\s\S]*CORS: +pages on http:\/\/localhost:5173 and the mock's own page may call it/);
		const first = await fetch(`${apiUrl}/collections`, { headers: { ...auth, origin: app } });
		expect(first.status).toBe(200);
		expect(first.headers.get(CHOICES.rateLimitHeaderNames.limit)).toBeNull();
		expect(first.headers.get('access-control-allow-origin')).toBe(app);
		const second = await fetch(`${apiUrl}/collections`, { headers: { ...auth, origin: app } });
		expect(second.status).toBe(429);
		expect(Number(second.headers.get(CHOICES.rateLimitHeaderNames.retryAfter))).toBeGreaterThanOrEqual(1);
		expect(second.headers.get(CHOICES.rateLimitHeaderNames.remaining)).toBeNull();
		expect(second.headers.get('access-control-allow-origin')).toBe(app);
		// Another page, a loopback one too (the list replaces the default), is refused before the rate limit counts it.
		for (const origin of ['http://elsewhere.test', 'http://localhost:3000']) {
			const refused = await fetch(`${apiUrl}/collections`, { headers: { ...auth, origin } });
			expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([403, null]);
		}
		const journal = await fetch(`${appUrl}${MOCK_CONTROL_PATHS.requests}`);
		expect(((await journal.json()) as { data: { status: number }[] }).data.map((e) => e.status)).toEqual([200, 429]);
		cli.child.kill('SIGTERM');
		expect(await cli.exited).toBe(0);
	});

	it('exits 2 on a bad data file, naming the file and the record', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'mock-cli-data-'));
		const file = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { jobs: { url_job: string; source_id: string }[] };
		file.jobs[2].url_job = 'careers page';
		const badRecord = join(dir, 'bad-record.json');
		writeFileSync(badRecord, JSON.stringify(file));
		file.jobs[2].url_job = 'https://careers.globex.io/jobs/1';
		file.jobs[1].source_id = 'src_gone';
		const badReference = join(dir, 'bad-reference.json');
		writeFileSync(badReference, JSON.stringify(file));
		const notJson = join(dir, 'not-json.json');
		writeFileSync(notJson, 'sources: []');
		const cases = [
			[badRecord, `${badRecord}: jobs[2].url_job: Invalid URL`],
			[badReference, `${badReference}: jobs[1].source_id: no source with id "src_gone"`],
			[notJson, `${notJson}: not JSON: `],
			[join(dir, 'missing.json'), `${join(dir, 'missing.json')}: cannot read it: ENOENT`],
		];
		await Promise.all(
			cases.map(async ([path, message]) => {
				const cli = start([...SMALL_FLAGS, '--data', path]);
				expect(await cli.exited).toBe(2);
				expect(cli.output().stderr).toContain(`job-signals-mock: ${message}`);
				expect(cli.output().stdout).not.toMatch(/API base URL/);
			}),
		);
	});
});
