// CORS on every route (service and control): preflight, the headers of actual answers, `*` and a list of origins; in-process and over real HTTP, where 405/404/413 keep working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHOICES, LIMITS, MOCK_CONTROL_PATHS } from '../../contract/api';
import { createMockService } from '../src/service.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { API_URL, APP_URL, DEMO_TOKEN, SMALL, useMock } from './harness.mts';
import { rawRequest } from './raw-http.mts';

const EXPOSED = Object.values(CHOICES.rateLimitHeaderNames);
const APP = 'http://localhost:3000';
const OTHER_APP = 'https://app.example.com';

const preflight = (url: string, origin: string | null, requestHeaders?: string) =>
	fetch(url, {
		method: 'OPTIONS',
		headers: {
			...(origin === null ? {} : { origin }),
			'access-control-request-method': 'GET',
			...(requestHeaders === undefined ? {} : { 'access-control-request-headers': requestHeaders }),
		},
	});
const get = (url: string, origin: string | null, token: string | null = DEMO_TOKEN) =>
	fetch(url, { headers: { ...(origin === null ? {} : { origin }), ...(token === null ? {} : { authorization: `Bearer ${token}` }) } });

function expectExposed(headers: Headers): void {
	const exposed = (headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim());
	expect(exposed).toEqual(EXPOSED);
}

describe('CORS in-process, any origin (the default)', () => {
	const mock = useMock();

	it('answers a preflight 204 with the path\'s methods, the asked-for headers and a max age, on service and control routes', async () => {
		const job = await preflight(`${API_URL}/jobs/job_0000001`, APP, 'authorization,x-trace-id');
		expect(job.status).toBe(204);
		expect(Object.fromEntries(job.headers)).toMatchObject({
			allow: 'GET, HEAD, OPTIONS',
			'access-control-allow-origin': '*',
			'access-control-allow-methods': 'GET, HEAD, OPTIONS',
			'access-control-allow-headers': 'authorization,x-trace-id',
			'access-control-max-age': String(LIMITS.corsMaxAgeSeconds),
		});
		// The control routes are no page's to call with `*`: the preflight names the methods but allows no origin.
		const faults = await preflight(`${APP_URL}${MOCK_CONTROL_PATHS.faults}`, APP);
		expect(faults.status).toBe(204);
		expect(faults.headers.get('allow')).toBe('DELETE, GET, HEAD, OPTIONS, PUT');
		expect(faults.headers.get('access-control-allow-origin')).toBeNull();
		expect(faults.headers.get('access-control-allow-methods')).toBeNull();
		// A preflight is no call: it spends no budget and is not in the journal.
		expect(mock.service.requests().data).toEqual([]);
	});

	it('puts Allow-Origin and Expose-Headers on answers, success and error; none on control routes (every token is there)', async () => {
		for (const response of [await get(`${API_URL}/collections`, APP), await get(`${API_URL}/collections`, APP, null)]) {
			expect(response.headers.get('access-control-allow-origin')).toBe('*');
			expectExposed(response.headers);
			expect(response.headers.get('vary')).toBeNull();
		}
		for (const origin of [APP, null]) {
			const accounts = await get(`${APP_URL}${MOCK_CONTROL_PATHS.accounts}`, origin);
			expect([accounts.status, accounts.headers.get('access-control-allow-origin')]).toEqual([200, null]);
		}
	});
});

describe('CORS in-process, a list of origins', () => {
	useMock({ ...SMALL, corsOrigin: `${APP}, ${OTHER_APP}` });

	it('answers each listed origin with itself and Vary: Origin; another origin or none gets no CORS headers', async () => {
		for (const origin of [APP, OTHER_APP]) {
			const answer = await get(`${API_URL}/collections`, origin);
			expect(answer.status).toBe(200);
			expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
			expect(answer.headers.get('vary')).toBe('Origin');
			expectExposed(answer.headers);
			expect((await preflight(`${API_URL}/collections`, origin)).headers.get('access-control-allow-origin')).toBe(origin);
		}
		for (const origin of ['http://localhost:3001', 'null', null]) {
			const answer = await get(`${API_URL}/collections`, origin);
			expect(answer.status).toBe(200);
			expect(answer.headers.get('access-control-allow-origin')).toBeNull();
			expect(answer.headers.get('access-control-expose-headers')).toBeNull();
			expect(answer.headers.get('vary')).toBe('Origin');
			const refused = await preflight(`${API_URL}/collections`, origin);
			expect(refused.status).toBe(204);
			expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
			expect(refused.headers.get('access-control-allow-origin')).toBeNull();
			expect(refused.headers.get('access-control-allow-methods')).toBeNull();
		}
	});
});

describe('CORS option', () => {
	it.each(['', 'localhost:3000', 'http://localhost:3000/', 'http://localhost:3000/app', 'ftp://files.example.com', `${APP},`, `${APP} ${OTHER_APP}`])('refuses the origin %j', async (bad) => {
		await expect(createMockService({ ...SMALL, corsOrigin: bad })).rejects.toThrow(/CORS origin must be "\*" or origins separated by commas/);
	});
});

describe('CORS over real HTTP', () => {
	let any: RunningMockServer;
	let listed: RunningMockServer;
	beforeAll(async () => {
		[any, listed] = await Promise.all([startMockServer({ ...SMALL, port: 0 }), startMockServer({ ...SMALL, port: 0, corsOrigin: APP })]);
	});
	afterAll(async () => {
		await Promise.all([any?.close(), listed?.close()]);
	});
	const send = (server: RunningMockServer, line: string, headers: Record<string, string> = {}, body = '') => {
		const url = new URL(server.appUrl);
		const all = { host: url.host, connection: 'close', ...headers, ...(body === '' ? {} : { 'content-length': String(Buffer.byteLength(body)) }) };
		return rawRequest(Number(url.port), `${line}\r\n${Object.entries(all).map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`, body);
	};

	it('answers a preflight 204 (not 405), keeps 405 with Allow for other methods, and 404 on an unknown path, each with CORS headers', async () => {
		const ok = await send(any, 'OPTIONS /v2/collections HTTP/1.1', { origin: APP, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' });
		expect(ok.status).toBe(204);
		expect(ok.headers).toMatchObject({ allow: 'GET, HEAD, OPTIONS', 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD, OPTIONS', 'access-control-allow-headers': 'authorization' });
		const patch = await send(any, 'PATCH /v2/collections HTTP/1.1', { origin: APP, authorization: `Bearer ${DEMO_TOKEN}` });
		expect([patch.status, patch.headers.allow, patch.headers['access-control-allow-origin']]).toEqual([405, 'GET, HEAD, OPTIONS', '*']);
		const put = await send(any, 'PUT /v2/collections HTTP/1.1', { origin: APP });
		expect([put.status, put.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
		const nowhere = await send(any, 'OPTIONS /nothing/here HTTP/1.1', { origin: APP });
		expect([nowhere.status, nowhere.headers['access-control-allow-origin']]).toEqual([404, '*']);
	});

	it('puts the headers on answers the server makes itself (413) and on the handlers\' answers, exposing the rate-limit headers', async () => {
		const big = await send(any, 'POST /api/webhooks HTTP/1.1', { origin: APP, 'content-length': String(LIMITS.maxRequestBodyBytes + 1) });
		expect([big.status, big.headers['access-control-allow-origin']]).toEqual([413, '*']);
		const bigControl = await send(any, 'POST /__mock/process HTTP/1.1', { origin: APP, 'content-length': String(LIMITS.maxRequestBodyBytes + 1) });
		expect([bigControl.status, bigControl.headers['access-control-allow-origin']]).toEqual([413, undefined]);
		const answer = await fetch(`${any.apiUrl}/collections`, { headers: { origin: APP, authorization: `Bearer ${DEMO_TOKEN}` } });
		expect(answer.headers.get('access-control-allow-origin')).toBe('*');
		expectExposed(answer.headers);
	});

	it('with a listed origin: echoes it with Vary: Origin, and sends another origin no CORS headers', async () => {
		const mine = await send(listed, 'GET /v2/collections HTTP/1.1', { origin: APP, authorization: `Bearer ${DEMO_TOKEN}` });
		expect([mine.status, mine.headers['access-control-allow-origin'], mine.headers.vary]).toEqual([200, APP, 'Origin']);
		const theirs = await send(listed, 'GET /v2/collections HTTP/1.1', { origin: OTHER_APP, authorization: `Bearer ${DEMO_TOKEN}` });
		expect([theirs.status, theirs.headers['access-control-allow-origin'], theirs.headers.vary]).toEqual([200, undefined, 'Origin']);
		const refused = await send(listed, 'PATCH /v2/collections HTTP/1.1', { origin: OTHER_APP });
		expect([refused.status, refused.headers['access-control-allow-origin']]).toEqual([405, undefined]);
	});
});
