// The routes the page polls read only what is asked: GET /__mock/requests and GET /__mock/deliveries take `limit` (the
// newest that many; default and most: the journal's and the log's caps), the journal a `status` filter. Bad values are
// 400 naming them, at and past the most. A small limit costs that many entries, whatever the history holds (counted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, MOCK_CONTROL_PATHS } from '../src/base/contract.mts';
import { Journal, MAX_JOURNAL_READ } from '../src/http/journal.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { MAX_LOG_ENTRIES, type DeliveryLogEntry } from '../src/webhooks/delivery-engine.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';

let server: RunningMockServer;
beforeAll(async () => {
	server = await startMockServer({ ...SMALL, port: 0, rateLimit: 2 });
});
afterAll(() => server?.close());

const get = async (path: string) => {
	const answer = await fetch(`${server.appUrl}${path}`);
	return { status: answer.status, body: (await answer.json()) as { data: { status: number; path: string }[]; message?: string } };
};
const api = (path: string) => fetch(`${server.apiUrl}${path}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });

describe('GET /__mock/requests: limit and status', () => {
	beforeAll(async () => {
		const faults = [{ path: '/v2/jobs/job_gone', status: 503 }, { path: '/v2/jobs/job_dropped', drop: true }];
		expect((await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.faults}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults }) })).status).toBe(200);
		// 200, 404, 503, a dropped connection (0), then a 429 (the budget of 2 spent by the first two; the faults answered spend none).
		expect((await api('/collections')).status).toBe(200);
		expect((await api('/sources/id/src_none')).status).toBe(404);
		expect((await api('/jobs/job_gone')).status).toBe(503);
		await expect(api('/jobs/job_dropped')).rejects.toThrow();
		expect((await api('/collections')).status).toBe(429);
	});

	const statuses = async (query: string) => {
		const { status, body } = await get(`${MOCK_CONTROL_PATHS.requests}${query}`);
		expect(status, JSON.stringify(body)).toBe(200);
		return body.data.map((entry) => entry.status);
	};

	it('limit: the newest that many matching calls, oldest first, as without it', async () => {
		expect(await statuses('')).toEqual([200, 404, 503, 0, 429]);
		expect(await statuses('?limit=2')).toEqual([0, 429]);
		expect(await statuses('?limit=1&path=/v2/jobs')).toEqual([0]);
		expect(await statuses(`?limit=${MAX_JOURNAL_READ}`)).toEqual([200, 404, 503, 0, 429]);
	});

	it('status: a status or a class (4xx has 429), several separated by commas, 0 for a dropped connection', async () => {
		expect(await statuses('?status=4xx')).toEqual([404, 429]);
		expect(await statuses('?status=429')).toEqual([429]);
		expect(await statuses('?status=0')).toEqual([0]);
		expect(await statuses('?status=2xx,5xx')).toEqual([200, 503]);
		expect(await statuses('?status=4XX&limit=1')).toEqual([429]);
	});

	it('a bad limit or status is a 400 naming it: 0, past the most, not a whole number; a status that is none', async () => {
		expect(MAX_JOURNAL_READ).toBe(LIMITS.maxJournalEntries);
		for (const limit of ['0', String(MAX_JOURNAL_READ + 1), '1.5', 'ten', '', '-1']) {
			const { status, body } = await get(`${MOCK_CONTROL_PATHS.requests}?limit=${limit}`);
			expect([status, body.message], limit).toEqual([400, `Invalid filter "limit": limit must be a whole number from 1 to ${MAX_JOURNAL_READ} (the newest calls that match; default: all of them)`]);
		}
		for (const bad of ['600', '4x', '2xx,', 'ok', '099']) {
			const { status, body } = await get(`${MOCK_CONTROL_PATHS.requests}?status=${bad}`);
			expect([status, body.message], bad).toEqual([400, 'Invalid filter "status": status must be a status (200, 429; 0 for a dropped connection) or a class (2xx, 4xx), several separated by commas']);
		}
		expect((await get(`${MOCK_CONTROL_PATHS.requests}?limit=1&limit=2`)).body.message).toBe('Invalid query parameter "limit": given more than once, takes one value');
	});
});

describe('the journal reads from the newest back', () => {
	it('a limit of 5 on a full journal of 10,000 calls reads 5 of them (URLs parsed counted), the whole journal without it', () => {
		const journal = new Journal({ accountList: () => [] }, () => 0);
		const request = new Request('http://127.0.0.1/v2/collections');
		const answered = new Response(null, { status: 200 });
		for (let i = 0; i < LIMITS.maxJournalEntries; i++) journal.record(request, new URL(`http://127.0.0.1/v2/collections?i=${i}`), null, answered);
		const RealUrl = globalThis.URL;
		let parsed = 0;
		globalThis.URL = class extends RealUrl {
			constructor(...args: ConstructorParameters<typeof URL>) {
				super(...args);
				parsed++;
			}
		};
		try {
			const newest = journal.read({ limit: 5 });
			expect(newest.data.map((entry) => entry.query.i)).toEqual(['9995', '9996', '9997', '9998', '9999']);
			expect(parsed).toBe(5);
			parsed = 0;
			expect(journal.read({ status: '2xx', limit: 3 }).data).toHaveLength(3);
			expect(parsed).toBe(3);
			parsed = 0;
			expect(journal.read().data).toHaveLength(LIMITS.maxJournalEntries);
			expect(parsed).toBe(LIMITS.maxJournalEntries);
		} finally {
			globalThis.URL = RealUrl;
		}
	});
});

describe('GET /__mock/deliveries: limit', () => {
	const entry = (i: number): DeliveryLogEntry => ({
		webhook_event_id: `whe_${i}`, webhook_id: 'wh_1', account_id: 'acc_demo', event_type: 'job_created', url: 'http://127.0.0.1:9/hook',
		attempt: 1, started_at: i, duration_ms: 1, status: 200, error: null, outcome: 'delivered', origin: 'cycle',
	});
	const ids = async (query: string) => {
		const { status, body } = await get(`${MOCK_CONTROL_PATHS.deliveries}${query}`);
		expect(status, JSON.stringify(body)).toBe(200);
		return (body.data as unknown as DeliveryLogEntry[]).map((e) => e.webhook_event_id);
	};

	it('the newest that many attempts, oldest first; without it, or at the most, the whole log', async () => {
		server.service.webhooks.engine.restoreLog(Array.from({ length: 6 }, (_, i) => entry(i)));
		expect(await ids('?limit=2')).toEqual(['whe_4', 'whe_5']);
		expect(await ids('')).toEqual(['whe_0', 'whe_1', 'whe_2', 'whe_3', 'whe_4', 'whe_5']);
		expect(await ids(`?limit=${MAX_LOG_ENTRIES}`)).toHaveLength(6);
		// A full log: the engine hands out only the newest asked for.
		server.service.webhooks.engine.restoreLog(Array.from({ length: MAX_LOG_ENTRIES + 5 }, (_, i) => entry(i)));
		expect(server.service.webhooks.engine.deliveries(3).map((e) => e.webhook_event_id)).toEqual([`whe_${MAX_LOG_ENTRIES + 2}`, `whe_${MAX_LOG_ENTRIES + 3}`, `whe_${MAX_LOG_ENTRIES + 4}`]);
		expect(await ids(`?limit=${MAX_LOG_ENTRIES}`)).toHaveLength(MAX_LOG_ENTRIES);
		server.service.webhooks.engine.restoreLog([]);
	});

	it('a bad limit is a 400 naming it: 0, past the most, not a whole number, given twice; an unknown parameter is a 400 naming it', async () => {
		for (const [limit, message] of [
			['0', `limit must be a whole number from 1 to ${MAX_LOG_ENTRIES}`],
			[String(MAX_LOG_ENTRIES + 1), `limit must be a whole number from 1 to ${MAX_LOG_ENTRIES} (the log keeps that many)`],
			['2.5', `limit must be a whole number from 1 to ${MAX_LOG_ENTRIES}`],
			['', `limit must be a whole number from 1 to ${MAX_LOG_ENTRIES}`],
		]) {
			const { status, body } = await get(`${MOCK_CONTROL_PATHS.deliveries}?limit=${limit}`);
			expect([status, body.message], limit).toEqual([400, `Invalid query parameter "limit": ${message}`]);
		}
		expect((await get(`${MOCK_CONTROL_PATHS.deliveries}?limit=1&limit=2`)).body.message).toBe('Invalid query parameter "limit": given more than once, takes one value');
		expect(await get(`${MOCK_CONTROL_PATHS.deliveries}?limt=5`)).toEqual({ status: 400, body: expect.objectContaining({ message: 'Unknown query parameter "limt"; known: limit' }) });
	});
});
