// Rate limits, transient failures, rejected tokens and unreachable services: retried or reported, never lost or repeated.
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { api, NODE_TYPE, setFaults } from './direct.mts';

// Limit 8 per window; the window is 60 s × timeScale = 1.2 s, so a 429's Retry-After is 1 or 2 s.
const mock = useMockService({ ...SMALL_MOCK, rateLimit: 8, timeScale: 0.02 });

const searchAll = (credentials = mock.credentials, onError?: 'continueRegularOutput') =>
	runNode({
		type: NODE_TYPE,
		parameters: { resource: 'job', operation: 'search', returnAll: true, output: 'raw' },
		credentials: { jobSignalsApi: credentials },
		onError,
	});
/** The service's answers (the mock's control calls left out). */
const statuses = () => mock.answers().filter((a) => !new URL(a.request.url).pathname.startsWith('/__mock')).map((a) => a.status);
/** Job search with no filters is every job of the account, newest first (read from the store: the API itself is rate limited here). */
const accountJobIds = () => mock.service.store.jobsOf(mock.service.accounts()[0].account_id).map((j) => j.job.job_id);
const ids = (items: { json: Record<string, unknown> }[]) => items.map((i) => i.json.job_id);

describe('resilience', () => {
	it('keeps under the limit the service reports, and recovers from a 429 in the middle of Return All with no lost or repeated items', async () => {
		await setFaults([{ path: '/v2/jobs', status: 429, after: 12, times: 2 }]);
		const run = await searchAll();
		expect(run.error).toBeUndefined();
		const expected = accountJobIds();
		expect(ids(run.items)).toEqual(expected);
		// Two injected 429s, none from the limiter: the pacer kept to the 8-per-window budget the headers reported.
		expect(statuses()).toEqual([...Array(12).fill(200), 429, 429, ...Array(Math.ceil(expected.length / 100) - 12).fill(200)]);
	}, 60_000);

	it('a budget used up by another client gives a real 429 with Retry-After, which the node waits out', async () => {
		for (let i = 0; i < 8; i++) await api('/collections');
		const run = await runNode({
			type: NODE_TYPE,
			parameters: { resource: 'collection', operation: 'getAll', returnAll: true },
			credentials: { jobSignalsApi: { ...mock.credentials, baseUrl: `${mock.credentials.baseUrl}/` } },
		});
		expect(run.error).toBeUndefined();
		expect(run.items.length).toBeGreaterThan(0);
		expect(statuses().slice(8)).toEqual([429, 200]);
	}, 30_000);

	it('a 500 and a dropped connection on reads are retried; the result is complete', async () => {
		await setFaults([
			{ path: '/v2/jobs', status: 500, after: 3, times: 1 },
			{ path: '/v2/sources', drop: true, times: 1 },
		]);
		const run = await searchAll();
		expect(run.error).toBeUndefined();
		expect(statuses().slice(0, 5)).toEqual([200, 200, 200, 500, 200]);
		expect(ids(run.items)).toEqual(accountJobIds());
		const [job] = run.items;
		const source = await runNode({
			type: NODE_TYPE,
			parameters: { resource: 'source', operation: 'get', source: { __rl: true, mode: 'id', value: String(job.json.source_id) } },
			credentials: { jobSignalsApi: mock.credentials },
		});
		expect(source.items.map((i) => i.json.source_id)).toEqual([job.json.source_id]);
		expect(statuses().slice(-2)).toEqual([0, 200]);
	}, 60_000);

	it('a service that keeps failing ends in a clear error after the retries (and continueOnFail keeps the item)', async () => {
		await setFaults([{ path: '/v2/jobs/filters', status: 503 }]);
		const run = await runNode({
			type: NODE_TYPE,
			parameters: { resource: 'job', operation: 'getFilters' },
			credentials: { jobSignalsApi: mock.credentials },
			onError: 'continueRegularOutput',
		});
		expect(run.items).toEqual([
			{ json: { error: 'The service answered 503: Injected fault on /v2/jobs/filters', errorDescription: 'Injected fault on /v2/jobs/filters', httpCode: '503' }, pairedItem: { item: 0 } },
		]);
		expect(statuses()).toEqual([503, 503, 503, 503]);
	}, 30_000);

	it('a rejected token says so, and the token appears nowhere in the error', async () => {
		const token = 'wrong-token-0123456789';
		const run = await searchAll({ ...mock.credentials, apiToken: token });
		expect(run.error?.message).toBe('The service rejected the API token');
		expect(run.error?.description).toBe('Invalid API token. Check the API Token in the Job Signals API credential.');
		expect(JSON.stringify(run.error)).not.toContain(token);
		expect(JSON.stringify(run.error, Object.getOwnPropertyNames(run.error))).not.toContain(token);
	});

	it('a service that stays unreachable and a malformed base URL are reported plainly', async () => {
		await setFaults([{ path: '/v2/jobs', drop: true }]);
		const unreachable = await searchAll();
		expect(unreachable.error?.message).toMatch(/^Could not reach the Job Signals service at https:\/\/job-signals\.mock: /);
		expect(statuses()).toEqual([0, 0, 0, 0]);
		const malformed = await searchAll({ ...mock.credentials, baseUrl: 'api.example.com/v2' });
		expect(malformed.error?.message).toBe("The credential's API Base URL is not an http(s) URL");
	}, 60_000);
});
