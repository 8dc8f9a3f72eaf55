// Every request the standalone server receives is on the record (GET /__admin/requests, /__admin/requests/unmatched,
// GET /__mock/requests), with its method as sent: a stub path no stub matched (its 404 diff), an unknown path, a 405,
// a 413, a HEAD. The mock's own routes (/__admin, /__mock) are not calls and stay off it. Over real HTTP: the
// standalone server makes these answers itself, no handler does.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';
import { rawRequest } from './raw-http.mts';

const MAX_BODY_BYTES = 1024;
let server: RunningMockServer;
let port: number;

beforeAll(async () => {
	server = await startMockServer({ ...SMALL, port: 0, maxBodyBytes: MAX_BODY_BYTES });
	port = Number(new URL(server.appUrl).port);
});
afterAll(() => server?.close());
beforeEach(async () => {
	await fetch(`${server.appUrl}/__admin/reset`, { method: 'POST' });
});

const admin = (path: string, body?: unknown) =>
	fetch(`${server.appUrl}/__admin${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
		(r) => r.json() as Promise<Record<string, unknown>>,
	);
const stub = async (mapping: Record<string, unknown>) => {
	const answer = await fetch(`${server.appUrl}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mapping) });
	expect(answer.status).toBe(201);
};
interface Serve {
	request: { method: string; url: string };
	response: { status: number };
	wasMatched: boolean;
}
const serveEvents = async () => ((await admin('/requests')).requests as Serve[]).map(({ request, response, wasMatched }) => [request.method, request.url, response.status, wasMatched]);
const journal = async () =>
	((await (await fetch(`${server.appUrl}/__mock/requests`)).json()) as { data: { method: string; path: string; status: number; body: string | null }[] }).data.map(({ method, path, status }) => [method, path, status]);

/** The scenario of the issue: a to-do list, empty, then with one item. */
async function todoScenario(): Promise<void> {
	await stub({ scenarioName: 'todo', requiredScenarioState: 'Started', request: { method: 'GET', urlPath: '/todo/items' }, response: { status: 200, jsonBody: { items: [] } } });
	await stub({ scenarioName: 'todo', requiredScenarioState: 'Started', newScenarioState: 'one item', request: { method: 'POST', urlPath: '/todo/items' }, response: { status: 201 } });
	await stub({ scenarioName: 'todo', requiredScenarioState: 'one item', request: { method: 'GET', urlPath: '/todo/items' }, response: { status: 200, jsonBody: { items: ['milk'] } } });
}

describe('every request is on the record', () => {
	it('the issue: with scenario stubs on /todo/items, a POST no stub matched (the scenario moved on) is journaled, and counted', async () => {
		await todoScenario();
		const first = await fetch(`${server.appUrl}/todo/items`, { method: 'POST', body: 'milk' });
		expect(first.status).toBe(201);
		const second = await fetch(`${server.appUrl}/todo/items`, { method: 'POST', body: 'eggs' });
		expect(second.status).toBe(404);
		expect(await admin('/requests/count', { method: 'POST', urlPath: '/todo/items' })).toEqual({ count: 2, requestJournalDisabled: false });
		expect(await serveEvents()).toEqual([
			['POST', '/todo/items', 404, false],
			['POST', '/todo/items', 201, true],
		]);
		const unmatched = (await admin('/requests/unmatched')).requests as { method: string; url: string; body: string }[];
		expect(unmatched.map(({ method, url, body }) => [method, url, body])).toEqual([['POST', '/todo/items', 'eggs']]);
		expect(await journal()).toEqual([
			['POST', '/todo/items', 201],
			['POST', '/todo/items', 404],
		]);
	});

	it('an unknown path (404), a method a path does not serve (405) and a body over the limit (413) are journaled; /__admin and /__mock are not', async () => {
		expect((await fetch(`${server.appUrl}/no/such/path?x=1`)).status).toBe(404);
		expect((await fetch(`${server.apiUrl}/collections`, { method: 'DELETE', headers: { authorization: `Bearer ${DEMO_TOKEN}` } })).status).toBe(405);
		const patch = await rawRequest(port, `PATCH /v2/collections HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
		expect(patch.status).toBe(405);
		const big = await fetch(`${server.appUrl}/api/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(MAX_BODY_BYTES + 1) });
		expect(big.status).toBe(413);
		expect((await fetch(`${server.appUrl}/__admin/nothing`)).status).toBe(404);
		expect((await fetch(`${server.appUrl}/__mock/nothing`)).status).toBe(404);
		expect(await journal()).toEqual([
			['GET', '/no/such/path', 404],
			['DELETE', '/v2/collections', 405],
			['PATCH', '/v2/collections', 405],
			['POST', '/api/webhooks', 413],
		]);
		// The account of a refused call is its token's, as on the service's own refusals.
		const entries = ((await (await fetch(`${server.appUrl}/__mock/requests?method=DELETE`)).json()) as { data: { account_id: string | null; headers: Record<string, string> }[] }).data;
		expect(entries.map((entry) => [entry.account_id, entry.headers.authorization])).toEqual([['acc_demo', 'Bearer [redacted]']]);
		expect((await admin('/requests/unmatched')).requests).toHaveLength(4);
	});

	it('HEAD is journaled as HEAD (answered as GET without the body), on a service path, a stub path and an unknown one', async () => {
		await stub({ request: { method: 'GET', urlPath: '/health' }, response: { status: 200, body: 'up' } });
		const head = (path: string) => fetch(`${server.appUrl}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
		expect((await head('/v2/collections')).status).toBe(200);
		expect((await head('/health')).status).toBe(200);
		expect((await head('/nowhere')).status).toBe(404);
		expect(await journal()).toEqual([
			['HEAD', '/v2/collections', 200],
			['HEAD', '/health', 200],
			['HEAD', '/nowhere', 404],
		]);
		expect(await admin('/requests/count', { method: 'GET', urlPath: '/health' })).toMatchObject({ count: 0 });
		expect(await admin('/requests/count', { method: 'HEAD', urlPath: '/health' })).toMatchObject({ count: 1 });
		expect((await serveEvents()).map(([method, url, , matched]) => [method, url, matched])).toEqual([
			['HEAD', '/nowhere', false],
			['HEAD', '/health', true],
			['HEAD', '/v2/collections', false],
		]);
	});
});
