// The standalone server over real HTTP (node:http around msw's getResponse): the same handlers answer on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	MOCK_CONTROL_PATHS, ENDPOINTS, apiErrorSchema, jobSearchEnvelopeSchema, signalsEnvelopeSchema, subscriberUploadErrorSchema,
} from '../src/base/contract.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';

let server: RunningMockServer;
beforeAll(async () => {
	server = await startMockServer({ ...SMALL, port: 0 });
});
afterAll(async () => {
	await server?.close();
});

const auth = { authorization: `Bearer ${DEMO_TOKEN}` };

describe('standalone server', () => {
	it('listens on 127.0.0.1 on a free port and reports its URLs', () => {
		expect(server.appUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(server.apiUrl).toBe(`${server.appUrl}/v2`);
	});

	it('answers the API with contract bodies, including a repeated categories parameter', async () => {
		const signals = await fetch(`${server.apiUrl}/signals/changes?per_page=50`, { headers: auth });
		expect(signals.status).toBe(200);
		expect(signals.headers.get('content-type')).toMatch(/application\/json/);
		const body = signalsEnvelopeSchema.strict().parse(await signals.json());
		expect(body.signals).toHaveLength(Math.min(50, body.pagination.count_signals));
		const params = new URLSearchParams([['categories', 'Artificial Intelligence, Data Science, & Machine Learning'], ['categories', 'DevOps'], ['search', '+senior']]);
		const search = await fetch(`${server.apiUrl}/jobs?${params}`, { headers: auth });
		const jobs = jobSearchEnvelopeSchema.strict().parse(await search.json());
		expect(jobs.data.length).toBeGreaterThan(0);
		for (const j of jobs.data) expect(j.job_title.toLowerCase()).toContain('senior');
	});

	it('re-sends a cached page whole: the same bytes and Content-Length on every read', async () => {
		const url = `${server.apiUrl}/signals/problems?per_page=1000&direct_only=false&active_only=false`;
		const reads = [];
		for (let i = 0; i < 3; i++) {
			const response = await fetch(url, { headers: auth });
			const bytes = new Uint8Array(await response.arrayBuffer());
			expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength);
			reads.push(Buffer.from(bytes).toString('utf8'));
		}
		const body = signalsEnvelopeSchema.strict().parse(JSON.parse(reads[0]));
		expect(body.signals.length).toBe(Math.min(1000, body.pagination.count_signals));
		expect(reads[1]).toBe(reads[0]);
		expect(reads[2]).toBe(reads[0]);
	});

	it('answers errors, the app URL and the control routes the same way', async () => {
		const noToken = await fetch(`${server.apiUrl}/collections`);
		expect(noToken.status).toBe(400);
		apiErrorSchema.strict().parse(await noToken.json());
		const upload = await fetch(`${server.appUrl}${ENDPOINTS.subscriberUpload.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email_addresses": "x@example.com", "access_token": "bad"}' });
		expect(upload.status).toBe(400);
		subscriberUploadErrorSchema.strict().parse(await upload.json());
		const ok = await fetch(`${server.appUrl}${ENDPOINTS.subscriberUpload.path}`, { method: 'POST', body: JSON.stringify({ email_addresses: 'x@example.com', access_token: DEMO_TOKEN }) });
		expect([ok.status, await ok.json()]).toEqual([200, {}]);
		const accounts = await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.accounts}`);
		expect(accounts.status).toBe(200);
	});

	it('answers 404 JSON for an unknown path, and drops the connection when a fault says so', async () => {
		const unknown = await fetch(`${server.appUrl}/nothing/here`);
		expect(unknown.status).toBe(404);
		expect(apiErrorSchema.strict().parse(await unknown.json()).status).toBe(404);
		const put = await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.faults}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [{ path: '/v2/collections', drop: true }] }) });
		expect(put.status).toBe(200);
		await expect(fetch(`${server.apiUrl}/collections`, { headers: auth })).rejects.toThrow();
		await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.faults}`, { method: 'DELETE', headers: { 'content-type': 'application/json' } });
		expect((await fetch(`${server.apiUrl}/collections`, { headers: auth })).status).toBe(200);
	});

	it('sends the bad bodies fault rules ask for, with a Content-Length that matches', async () => {
		const faults = (body: unknown) => fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.faults}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		const page2 = `${server.apiUrl}/signals/problems?page=2`;
		const real = await (await fetch(page2, { headers: auth })).text();
		expect((await faults({ faults: [{ path: '/v2/signals', body: 'truncated-json', after: 1 }, { path: '/v2/collections', status: 502, body: 'html' }] })).status).toBe(200);
		expect((await fetch(`${server.apiUrl}/signals/problems`, { headers: auth })).status).toBe(200);
		for (const [url, status, expected] of [
			[page2, 200, (text: string) => expect(text).toBe(real.slice(0, Math.floor(real.length / 2)))],
			[`${server.apiUrl}/collections`, 502, (text: string) => expect(text).toMatch(/<title>502 Bad Gateway<\/title>/)],
		] as const) {
			const response = await fetch(url, { headers: auth });
			const bytes = Buffer.from(await response.arrayBuffer());
			expect(response.status).toBe(status);
			expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength);
			expected(bytes.toString('utf8'));
		}
		await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.faults}`, { method: 'DELETE', headers: { 'content-type': 'application/json' } });
	});
});
