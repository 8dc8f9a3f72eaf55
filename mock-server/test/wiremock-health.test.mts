// WireMock's GET /__admin/health and GET /__admin/version (what Docker health checks and container wait strategies call):
// WireMock's fields over HTTP, the mock's own version, uptime counted from the mock's start (with a stand-in process), and
// the local-only rules. Neither npm client (wiremock-rest-client 1.11.0, wiremock-captain 4.1.3) calls them: plain HTTP.
import { readFileSync } from 'node:fs';
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../src/http/journal.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { adminRoutes } from '../src/wiremock/admin-routes.mts';
import { healthAnswerSchema, versionAnswerSchema } from '../src/wiremock/health.mts';
import { JournalQuery } from '../src/wiremock/journal-query.mts';
import { MappingsStore } from '../src/wiremock/mappings-store.mts';
import { rawRequest } from './raw-http.mts';
import { SMALL } from './harness.mts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
let server: RunningMockServer;

beforeAll(async () => {
	server = await startMockServer({ ...SMALL, port: 0 });
});
afterAll(() => server?.close());

describe('GET /__admin/health and /__admin/version over HTTP', () => {
	it('health: 200, status "healthy", the mock\'s version, whole seconds up, the time; HEAD the same without a body', async () => {
		const answer = await fetch(`${server.appUrl}/__admin/health`);
		expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'application/json']);
		const health = healthAnswerSchema.parse(await answer.json());
		expect(health).toMatchObject({ status: 'healthy', message: 'job-signals-mock-server is ok', version });
		// Generous bounds (a busy machine): the server started within this test file, and the answer is from now.
		expect(health.uptimeInSeconds).toBeGreaterThanOrEqual(0);
		expect(health.uptimeInSeconds).toBeLessThan(600);
		expect(Math.abs(Date.parse(health.timestamp) - Date.now())).toBeLessThan(60_000);
		const port = Number(new URL(server.appUrl).port);
		const head = await rawRequest(port, `HEAD /__admin/health HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n\r\n`);
		expect([head.status, head.body]).toEqual([200, '']);
		expect(Number(head.headers['content-length'])).toBeGreaterThan(50);
	});

	it('version: {"version"}, the package\'s', async () => {
		const answer = await fetch(`${server.appUrl}/__admin/version`);
		expect(answer.status).toBe(200);
		expect(versionAnswerSchema.parse(await answer.json())).toEqual({ version });
	});

	it('local-only as the rest of the admin API: a page on another origin gets 403, a Host not local 403; no journal entry', async () => {
		for (const route of ['/__admin/health', '/__admin/version']) {
			const refused = await fetch(`${server.appUrl}${route}`, { headers: { origin: 'https://evil.example' } });
			expect([route, refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([route, 403, null]);
			const allowed = await fetch(`${server.appUrl}${route}`, { headers: { origin: 'http://localhost:3000' } });
			expect([route, allowed.status, allowed.headers.get('access-control-allow-origin')]).toEqual([route, 200, 'http://localhost:3000']);
		}
		const port = Number(new URL(server.appUrl).port);
		expect((await rawRequest(port, `GET /__admin/health HTTP/1.1\r\nhost: attacker.example\r\nconnection: close\r\n\r\n`)).status).toBe(403);
		expect(server.service.requests()).toMatchObject({ data: [] });
	});

	it('a method it does not take is a 405 naming GET, in WireMock\'s error body', async () => {
		const answer = await fetch(`${server.appUrl}/__admin/health`, { method: 'POST', headers: { 'content-type': 'application/json' } });
		expect([answer.status, answer.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
		expect(await answer.json()).toEqual({ errors: [{ code: 405, title: 'Method Not Allowed', detail: 'POST is not allowed here; allowed: GET, HEAD, OPTIONS' }] });
	});
});

describe('uptime, with a stand-in process', () => {
	it('counts whole seconds from the start, on the monotonic clock; the timestamp is the wall clock\'s', async () => {
		const journal = new Journal({ accountList: () => [] }, () => 0);
		const mappings = new MappingsStore();
		let uptimeMs = 0;
		const wallClockMs = Date.UTC(2030, 0, 2, 3, 4, 5);
		const routes = adminRoutes({ mappings, requests: new JournalQuery(journal, mappings), clearJournal: () => journal.clear(), running: { uptimeMs: () => uptimeMs, wallClockMs: () => wallClockMs } });
		const health = async () => healthAnswerSchema.parse(await (await getResponse(routes, new Request('http://mock.test/__admin/health')))!.json());
		expect(await health()).toMatchObject({ uptimeInSeconds: 0, timestamp: '2030-01-02T03:04:05.000Z' });
		uptimeMs = 999;
		expect((await health()).uptimeInSeconds).toBe(0);
		uptimeMs = 90_500;
		expect((await health()).uptimeInSeconds).toBe(90);
	});
});
