// The request journal (GET /__mock/requests and service.requests()): what it records, its filters and their 400s, reset, the cap; in-process and over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { LIMITS, MOCK_CONTROL_PATHS, ENDPOINTS } from '../src/base/contract.mts';
import { Journal, JOURNAL_BODY_BYTES, JOURNAL_ENTRY_BYTES, journalBody, JournalFilterError, type JournalAnswer } from '../src/http/journal.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { APP_URL, call, DEMO_TOKEN, expectApiError, SECOND_TOKEN, SMALL, useMock } from './harness.mts';

const entrySchema = z
	.object({
		method: z.string(),
		path: z.string(),
		query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
		account_id: z.string().nullable(),
		status: z.number().int(),
		time: z.iso.datetime(),
		time_ms: z.number().int(),
		warnings: z.array(z.string()),
		headers: z.record(z.string(), z.string()),
		body: z.string().nullable(),
		body_truncated: z.boolean(),
		stub_id: z.string().nullable(),
	})
	.strict();
const answerSchema = z.object({ data: z.array(entrySchema), dropped: z.number().int().nonnegative() }).strict();

/** GET /__mock/requests with these filters, expecting 200 and the documented shape. */
async function journal(query = ''): Promise<JournalAnswer> {
	const answer = await call(`${MOCK_CONTROL_PATHS.requests}${query}`, { base: APP_URL, token: null });
	if (answer.status !== 200) throw new Error(`journal${query}: ${answer.status} ${JSON.stringify(answer.json)}`);
	return answerSchema.parse(answer.json);
}

describe('request journal, in-process', () => {
	const mock = useMock();

	it('logs every service call (API base and app URL) with method, path, query, account, final status and time; not the control routes', async () => {
		const before = Date.now();
		expect((await call('/signals/problems?per_page=5&direct_only=false')).status).toBe(200);
		expect((await call('/jobs?categories=DevOps&categories=Design&search=engineer')).status).toBe(200);
		expectApiError(await call('/collections', { token: null }), 400);
		expectApiError(await call('/collections', { token: 'not-a-token' }), 400);
		expectApiError(await call('/sources/id/src_nope', { token: SECOND_TOKEN }), 404);
		const upload = await call(ENDPOINTS.subscriberUpload.path, { base: APP_URL, token: null, method: 'POST', body: { email_addresses: 'x@example.com', access_token: DEMO_TOKEN } });
		expect(upload.status).toBe(200);
		expect((await call(ENDPOINTS.listWebhooks.path, { base: APP_URL, token: SECOND_TOKEN })).status).toBe(200);
		await call(MOCK_CONTROL_PATHS.accounts, { base: APP_URL, token: null });
		const { data, dropped } = await journal();
		expect(dropped).toBe(0);
		expect(data.map(({ method, path, query, account_id, status }) => ({ method, path, query, account_id, status }))).toEqual([
			{ method: 'GET', path: '/v2/signals/problems', query: { per_page: '5', direct_only: 'false' }, account_id: 'acc_demo', status: 200 },
			{ method: 'GET', path: '/v2/jobs', query: { categories: ['DevOps', 'Design'], search: 'engineer' }, account_id: 'acc_demo', status: 200 },
			{ method: 'GET', path: '/v2/collections', query: {}, account_id: null, status: 400 },
			{ method: 'GET', path: '/v2/collections', query: {}, account_id: null, status: 400 },
			{ method: 'GET', path: '/v2/sources/id/src_nope', query: {}, account_id: 'acc_second', status: 404 },
			{ method: 'POST', path: ENDPOINTS.subscriberUpload.path, query: {}, account_id: 'acc_demo', status: 200 },
			{ method: 'GET', path: ENDPOINTS.listWebhooks.path, query: {}, account_id: 'acc_second', status: 200 },
		]);
		for (let i = 0; i < data.length; i++) {
			expect(data[i].time_ms).toBeGreaterThanOrEqual(i === 0 ? before : data[i - 1].time_ms);
			expect(Date.parse(data[i].time)).toBe(data[i].time_ms);
		}
		// The in-process API answers the same.
		expect(mock.service.requests()).toEqual({ data, dropped: 0 });
	});

	it('logs the status of injected faults: an error status, and 0 for a dropped connection, with the token\'s account', async () => {
		const faults = [{ path: '/v2/collections', status: 503, times: 1 }, { path: '/v2/signals', drop: true }];
		expect((await call(MOCK_CONTROL_PATHS.faults, { base: APP_URL, token: null, method: 'PUT', body: { faults } })).status).toBe(200);
		expectApiError(await call('/collections'), 503);
		await expect(call('/signals/problems')).rejects.toThrow(TypeError);
		expect((await call('/collections')).status).toBe(200);
		const { data } = await journal();
		expect(data.map((e) => [e.path, e.status, e.account_id])).toEqual([
			['/v2/collections', 503, 'acc_demo'],
			['/v2/signals/problems', 0, 'acc_demo'],
			['/v2/collections', 200, 'acc_demo'],
		]);
	});

	it('filters by path prefix, method (any case), account and since (ISO or epoch ms), together', async () => {
		await call('/collections');
		await call('/signals/problems', { token: SECOND_TOKEN });
		await call(ENDPOINTS.listWebhooks.path, { base: APP_URL, method: 'POST', body: { url: 'https://example.com/hook', event_types: ['signal'] } });
		const all = (await journal()).data;
		expect(all).toHaveLength(3);
		expect((await journal('?path=/v2/')).data.map((e) => e.path)).toEqual(['/v2/collections', '/v2/signals/problems']);
		expect((await journal('?path=/v2/signals/problems')).data).toEqual([all[1]]);
		expect((await journal('?path=/v2/sig')).data).toEqual([all[1]]);
		expect((await journal('?method=post')).data).toEqual([all[2]]);
		expect((await journal('?account=acc_second')).data).toEqual([all[1]]);
		expect((await journal('?account=acc_demo&method=GET&path=/v2')).data).toEqual([all[0]]);
		expect((await journal(`?since=${all[0].time_ms}`)).data).toEqual(all);
		expect((await journal(`?since=${encodeURIComponent(new Date(all[2].time_ms + 1).toISOString())}`)).data).toEqual([]);
		expect((await journal(`?since=${all[2].time_ms + 1}`)).data).toEqual([]);
		// In-process, the same filters as values.
		expect(mock.service.requests({ account: 'acc_demo', method: 'post' }).data).toEqual([all[2]]);
		expect(mock.service.requests({ since: new Date(all[2].time_ms + 1) }).data).toEqual([]);
		expect(mock.service.requests({ since: all[0].time_ms, path: '/api/' }).data).toEqual([all[2]]);
	});

	it('answers a bad filter with 400 naming it (in-process: JournalFilterError)', async () => {
		const bad: [string, RegExp][] = [
			['?path=v2/jobs', /"path".*start with "\/"/],
			['?method=GET2', /"method".*a method name \(GET, HEAD, POST, …\)/],
			['?method=', /"method"/],
			['?account=acc_nope', /"account".*no account with id "acc_nope"/],
			['?account=', /"account"/],
			['?since=yesterday', /"since".*ISO 8601/],
			['?since=2026-13-45T99:00:00Z', /"since"/],
			// A day the month lacks (Date.parse alone would read it as 2026-03-02).
			['?since=2026-02-30T00:00:00Z', /"since"/],
			['?since=2026-04-31', /"since"/],
			['?since=-5', /"since"/],
			['?verb=GET', /Unrecognized key.*verb/],
			['?path=/v2&path=/api', /"path".*more than once/],
		];
		for (const [query, message] of bad) expectApiError(await call(`${MOCK_CONTROL_PATHS.requests}${query}`, { base: APP_URL, token: null }), 400, message);
		expect(() => mock.service.requests({ method: 'TR ACE' })).toThrow(JournalFilterError);
		// Any method is one: the standalone server journals every request with its method as sent.
		expect(mock.service.requests({ method: 'patch' }).data).toEqual([]);
		expect(() => mock.service.requests({ since: Number.NaN })).toThrow(/since/);
	});

	it('is emptied by POST /__mock/reset', async () => {
		await call('/collections');
		expect((await journal()).data).toHaveLength(1);
		expect((await call(MOCK_CONTROL_PATHS.reset, { base: APP_URL, token: null, method: 'POST' })).status).toBe(200);
		expect(await journal()).toEqual({ data: [], dropped: 0 });
	});
});

describe('request journal, with the rate limit on', () => {
	useMock({ ...SMALL, rateLimit: 1, timeScale: 0.5 });

	it('logs the 429 a call was refused with', async () => {
		expect((await call('/collections')).status).toBe(200);
		expectApiError(await call('/collections'), 429);
		expect((await journal()).data.map((e) => [e.status, e.account_id])).toEqual([[200, 'acc_demo'], [429, 'acc_demo']]);
	});
});

describe('request journal cap', () => {
	it('keeps the latest calls up to its capacity, dropping the oldest first and counting them', () => {
		const accounts = { accountByToken: () => undefined, accountList: () => [] };
		const small = new Journal(accounts, Date.now, 3);
		for (let i = 1; i <= 5; i++) small.record(new Request(`http://mock.test/v2/jobs/job_${i}`), new URL(`http://mock.test/v2/jobs/job_${i}`), undefined, new Response(null, { status: 200 + i }));
		const { data, dropped } = small.read();
		expect(dropped).toBe(2);
		expect(data.map((e) => [e.path, e.status])).toEqual([['/v2/jobs/job_3', 203], ['/v2/jobs/job_4', 204], ['/v2/jobs/job_5', 205]]);
		expect(small.read({ path: '/v2/jobs/job_4' })).toEqual({ data: [data[1]], dropped: 2 });
		small.clear();
		expect(small.read()).toEqual({ data: [], dropped: 0 });
		expect(LIMITS.maxJournalEntries).toBe(10_000);
	});

	it('keeps at most its bytes too: long URLs push the oldest calls out sooner, counted in dropped alike', () => {
		const accounts = { accountByToken: () => undefined, accountList: () => [] };
		const href = (i: number) => `http://mock.test/v2/jobs?search=${String(i).padStart(8000, 'x')}`;
		const perCall = href(1).length + JOURNAL_ENTRY_BYTES;
		const journal = new Journal(accounts, Date.now, 1000, 3 * perCall);
		for (let i = 1; i <= 10; i++) journal.record(new Request(href(i)), new URL(href(i)), undefined, new Response(null, { status: 200 }));
		const { data, dropped } = journal.read();
		expect(dropped).toBe(7);
		expect(data.map((e) => e.query.search)).toEqual([8, 9, 10].map((i) => String(i).padStart(8000, 'x')));
		// Short calls fill it up to the count cap as before; the newest call is always kept, however long.
		const short = new Journal(accounts, Date.now, 5, 3 * perCall);
		for (let i = 1; i <= 7; i++) short.record(new Request(`http://mock.test/v2/jobs/job_${i}`), new URL(`http://mock.test/v2/jobs/job_${i}`), undefined, new Response(null, { status: 200 }));
		short.record(new Request(href(99)), new URL(href(99)), undefined, new Response(null, { status: 200 }));
		expect(short.read().dropped).toBe(3);
		expect(short.read().data.at(-1)?.query.search).toBe(String(99).padStart(8000, 'x'));
		expect(LIMITS.maxJournalBytes).toBe(4 * 1024 * 1024);
	});

	it('counts the kept headers and bodies against its bytes, and keeps a body cut at JOURNAL_BODY_BYTES', () => {
		const accounts = { accountByToken: () => undefined, accountList: () => [] };
		const url = 'http://mock.test/api/webhooks';
		const big = journalBody('y'.repeat(JOURNAL_BODY_BYTES + 10));
		expect([big.text.length, big.truncated]).toEqual([JOURNAL_BODY_BYTES, true]);
		const perCall = url.length + JOURNAL_ENTRY_BYTES + JOURNAL_BODY_BYTES + 'x-pad'.length + 1000;
		const journal = new Journal(accounts, Date.now, 1000, 2 * perCall);
		for (let i = 1; i <= 4; i++) journal.record(new Request(url, { method: 'POST', headers: { 'x-pad': String(i).repeat(1000) } }), new URL(url), undefined, new Response(null, { status: 201 }), [], big);
		const { data, dropped } = journal.read();
		expect(dropped).toBe(2);
		expect(data.map((entry) => [entry.headers['x-pad'][0], entry.body?.length, entry.body_truncated])).toEqual([['3', JOURNAL_BODY_BYTES, true], ['4', JOURNAL_BODY_BYTES, true]]);
	});
});

describe('request journal over real HTTP', () => {
	let server: RunningMockServer;
	beforeAll(async () => {
		server = await startMockServer({ ...SMALL, port: 0 });
	});
	afterAll(async () => {
		await server?.close();
	});

	it('logs the standalone server\'s calls, HEAD as HEAD (answered as GET without the body)', async () => {
		const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
		expect((await fetch(`${server.apiUrl}/signals/changes?page=2`, { headers: auth })).status).toBe(200);
		expect((await fetch(`${server.apiUrl}/collections`, { method: 'HEAD', headers: auth })).status).toBe(200);
		const answer = await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.requests}?path=/v2/`);
		expect(answer.status).toBe(200);
		const { data } = answerSchema.parse(await answer.json());
		expect(data.map((e) => [e.method, e.path, e.query, e.account_id, e.status])).toEqual([
			['GET', '/v2/signals/changes', { page: '2' }, 'acc_demo', 200],
			['HEAD', '/v2/collections', {}, 'acc_demo', 200],
		]);
		expect(answerSchema.parse(await (await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.requests}?method=head`)).json()).data.map((e) => e.path)).toEqual(['/v2/collections']);
		const refused = await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.requests}?since=soon`);
		expect(refused.status).toBe(400);
	});
});
