// WireMock's admin API on the standalone server, driven by the real npm clients (wiremock-rest-client, wiremock-captain) and by plain HTTP: mappings, verification, scenarios, resets, the passthrough to the stateful service (auth and 429), faults on the socket, stubs on paths the service does not have, PATCH, HEAD and OPTIONS stubs (and the CORS preflight before them), WireMock's error body on the 4xx, and the local-only rules.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DelayType, EndpointFeature, MatchingAttributes, WireMock, WireMockAPI, WireMockFault } from 'wiremock-captain';
import { WireMockRestClient } from 'wiremock-rest-client';
import { ENDPOINTS, apiErrorSchema } from '../src/base/contract.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { adminErrorSchema } from '../src/wiremock/admin-error.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';
import { rawRequest } from './raw-http.mts';

let server: RunningMockServer;
let limited: RunningMockServer;
let rest: WireMockRestClient;
let captain: WireMock;
let port: number;

beforeAll(async () => {
	server = await startMockServer({ ...SMALL, port: 0 });
	limited = await startMockServer({ ...SMALL, port: 0, rateLimit: 3 });
	port = Number(new URL(server.appUrl).port);
	// continueOnFailure: the client would otherwise end the process on a 4xx; silent: the refusals are the test's own.
	rest = new WireMockRestClient(server.appUrl, { logLevel: 'silent', continueOnFailure: true });
	captain = new WireMock(server.appUrl);
});
afterAll(async () => {
	await server?.close();
	await limited?.close();
});
beforeEach(async () => {
	await rest.global.resetAll();
});

const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
/** An admin route's error (WireMock's body) or one the server gave before any route ran (the mock's), as status and message. */
const errorOf = (body: unknown) => {
	const admin = adminErrorSchema.safeParse(body);
	if (!admin.success) return apiErrorSchema.strict().parse(body);
	const [error] = admin.data.errors;
	return { status: error.code === 10 ? 400 : error.code, message: error.detail, error };
};

describe('wiremock-rest-client', () => {
	it('creates, lists, gets, updates, deletes a mapping; the stub answers over HTTP', async () => {
		const created = await rest.mappings.createMapping({
			name: 'one job',
			request: { method: 'GET', urlPath: '/v2/jobs/job_rest' },
			response: { status: 200, jsonBody: { job_id: 'job_rest' }, headers: { 'X-Stub': 'rest' } },
		});
		expect(created).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'one job', request: { urlPath: '/v2/jobs/job_rest' } });
		const id = (created as { id: string }).id;
		const answer = await fetch(`${server.apiUrl}/jobs/job_rest`);
		expect([answer.status, answer.headers.get('x-stub'), await answer.json()]).toEqual([200, 'rest', { job_id: 'job_rest' }]);
		expect(await rest.mappings.getAllMappings()).toEqual({ mappings: [created], meta: { total: 1 } });
		expect(await rest.mappings.getMapping(id)).toEqual(created);
		const updated = await rest.mappings.updateMapping(id, { request: { method: 'GET', urlPath: '/v2/jobs/job_rest' }, response: { status: 202 } });
		expect(updated).toMatchObject({ id, response: { status: 202 } });
		expect((await fetch(`${server.apiUrl}/jobs/job_rest`)).status).toBe(202);
		await rest.mappings.deleteMapping(id);
		expect(await rest.mappings.getAllMappings()).toEqual({ mappings: [], meta: { total: 0 } });
		// No stub: the service, which wants a token.
		expect((await fetch(`${server.apiUrl}/jobs/job_rest`)).status).toBe(400);
	});

	it('deleteAllMappings and resetAllMappings remove every stub; a mapping it cannot serve is a 400 naming the field', async () => {
		await rest.mappings.createMapping({ request: { urlPath: '/v2/jobs/a' }, response: { status: 201 } });
		await rest.mappings.deleteAllMappings();
		expect(await rest.mappings.getAllMappings()).toMatchObject({ meta: { total: 0 } });
		await rest.mappings.createMapping({ request: { urlPath: '/v2/jobs/a' }, response: { status: 201 } });
		await rest.mappings.resetAllMappings();
		expect(await rest.mappings.getAllMappings()).toMatchObject({ meta: { total: 0 } });
		const refused = await rest.mappings.createMapping({ request: { urlPath: '/v2/jobs/a', cookies: { session: { equalTo: 'x' } } }, response: {} });
		// WireMock's error body, as its clients read it: code 10, the field as a JSON pointer, the mock's message as the detail.
		expect(refused).toEqual({
			errors: [{ code: 10, source: { pointer: '/request/cookies' }, title: 'Error parsing JSON', detail: expect.stringMatching(/^Invalid mapping: request\.cookies: WireMock's "cookies": cookie patterns are not served/) }],
		});
		expect(await rest.mappings.getAllMappings()).toMatchObject({ meta: { total: 0 } });
	});

	it('verifies: all requests (newest first), count, find, unmatched, one by id, delete one, remove, reset', async () => {
		await rest.mappings.createMapping({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path }, response: { status: 201, jsonBody: { webhook_id: 'wh_stub' } } });
		await fetch(`${server.appUrl}${ENDPOINTS.createWebhook.path}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://hooks.example/a', event_types: ['signal'] }) });
		await fetch(`${server.apiUrl}/collections`, { headers: auth });
		const all = (await rest.requests.getAllRequests()) as { requests: { id: string; request: { url: string; method: string; headers: Record<string, string>; body: string }; wasMatched: boolean; stubMapping?: unknown }[]; meta: { total: number } };
		expect(all.meta.total).toBe(2);
		expect(all.requests.map(({ request, wasMatched }) => [request.method, request.url, wasMatched])).toEqual([
			['GET', '/v2/collections', false],
			['POST', ENDPOINTS.createWebhook.path, true],
		]);
		expect(all.requests[1].request.headers.authorization).toBe('Bearer [redacted]');
		expect(JSON.parse(all.requests[1].request.body)).toEqual({ url: 'https://hooks.example/a', event_types: ['signal'] });
		expect(all.requests[1].stubMapping).toMatchObject({ request: { urlPath: ENDPOINTS.createWebhook.path } });
		expect(await rest.requests.getCount({ method: 'POST', urlPath: ENDPOINTS.createWebhook.path, bodyPatterns: [{ matchesJsonPath: "$.event_types[?(@ == 'signal')]" }] })).toEqual({ count: 1, requestJournalDisabled: false });
		expect(await rest.requests.getCount({ method: 'GET' })).toMatchObject({ count: 1 });
		const found = (await rest.requests.findRequests({ urlPathPattern: '/v2/.*' })) as { requests: { url: string }[] };
		expect(found.requests.map((request) => request.url)).toEqual(['/v2/collections']);
		const unmatched = (await rest.requests.getUnmatchedRequests()) as { requests: { url: string }[] };
		expect(unmatched.requests.map((request) => request.url)).toEqual(['/v2/collections']);
		expect(await rest.requests.getRequest(all.requests[0].id)).toMatchObject({ id: all.requests[0].id, request: { url: '/v2/collections' }, response: { status: 200 } });
		await rest.requests.deleteRequest(all.requests[0].id);
		expect(await rest.requests.getCount({})).toMatchObject({ count: 1 });
		expect(await rest.requests.removeRequests({ method: 'POST' })).toMatchObject({ requests: [{ method: 'POST' }] });
		expect(await rest.requests.getCount({})).toMatchObject({ count: 0 });
		await fetch(`${server.apiUrl}/collections`, { headers: auth });
		await rest.requests.resetAllRequests();
		expect(await rest.requests.getAllRequests()).toMatchObject({ requests: [], meta: { total: 0 } });
		await fetch(`${server.apiUrl}/collections`, { headers: auth });
		await rest.requests.deleteAllRequests();
		expect(await rest.requests.getCount({})).toMatchObject({ count: 0 });
		// The mock's own journal is the same one.
		expect(await fetch(`${server.appUrl}/__mock/requests`).then((r) => r.json())).toEqual({ data: [], dropped: 0 });
	});

	it('scenarios: list, set a state, reset', async () => {
		const base = { scenarioName: 'retry', request: { method: 'GET', urlPath: '/v2/jobs/job_flaky' } };
		await rest.mappings.createMapping({ ...base, requiredScenarioState: 'Started', newScenarioState: 'recovered', response: { status: 503 } });
		await rest.mappings.createMapping({ ...base, requiredScenarioState: 'recovered', response: { status: 200, jsonBody: { ok: true } } });
		expect(await rest.scenarios.getAllScenarios()).toMatchObject({ scenarios: [{ id: 'retry', name: 'retry', state: 'Started', possibleStates: ['Started', 'recovered'] }] });
		expect((await fetch(`${server.apiUrl}/jobs/job_flaky`)).status).toBe(503);
		expect((await fetch(`${server.apiUrl}/jobs/job_flaky`)).status).toBe(200);
		await rest.scenarios.resetAllScenarios();
		expect((await fetch(`${server.apiUrl}/jobs/job_flaky`)).status).toBe(503);
		await rest.scenarios.setScenarioState('retry', 'Started');
		expect((await fetch(`${server.apiUrl}/jobs/job_flaky`)).status).toBe(503);
		await rest.scenarios.setScenarioState('retry', 'recovered');
		expect((await fetch(`${server.apiUrl}/jobs/job_flaky`)).status).toBe(200);
		expect(errorOf(await rest.scenarios.setScenarioState('retry', 'nowhere'))).toMatchObject({ status: 400, message: 'Scenario "retry" has no state "nowhere" (its states: Started, recovered)' });
		expect(await rest.scenarios.setScenarioState('nope', 'Started')).toEqual({ errors: [{ code: 404, title: 'Not Found', detail: 'No scenario named "nope"' }] });
		// A name with a space travels percent-encoded.
		await rest.mappings.createMapping({ scenarioName: 'two words', requiredScenarioState: 'Started', newScenarioState: 'next', request: { urlPath: '/v2/jobs/job_two' }, response: { status: 201 } });
		expect(await fetch(`${server.appUrl}/__admin/scenarios/two%20words/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"state": "next"}' }).then((r) => r.json())).toEqual({});
		expect(await rest.scenarios.getAllScenarios()).toMatchObject({ scenarios: [{ name: 'retry' }, { name: 'two words', state: 'next' }] });
	});

	it('global resetAll empties the stubs, the scenarios and the journal, not the data', async () => {
		await rest.mappings.createMapping({ request: { urlPath: '/v2/jobs/x' }, response: { status: 201 } });
		await fetch(`${server.apiUrl}/collections`, { headers: auth });
		await rest.global.resetAll();
		expect(await rest.mappings.getAllMappings()).toMatchObject({ meta: { total: 0 } });
		expect(await rest.requests.getCount({})).toMatchObject({ count: 0 });
		expect((await fetch(`${server.apiUrl}/collections`, { headers: auth })).status).toBe(200);
	});

	it('what the mock does not serve of the admin API is a 404 that says so', async () => {
		const answer = await fetch(`${server.appUrl}/__admin/recordings/status`);
		expect(answer.status).toBe(404);
		expect(errorOf(await answer.json()).message).toMatch(/^GET \/__admin\/recordings\/status is WireMock's, and not served by this mock/);
		expect(errorOf(await rest.mappings.findByMetaData({ matchesJsonPath: '$.a' })).status).toBe(404);
	});
});

describe('wiremock-captain', () => {
	it('registers stubs with its features (url, equalToJson body, query, headers, priority), lists, deletes, clears', async () => {
		const mapping = await captain.register(
			{ method: 'POST', endpoint: ENDPOINTS.createWebhook.path, body: { url: 'https://a.example', event_types: ['signal'] }, headers: { 'X-Team': 'qa' } },
			{ status: 201, body: { webhook_id: 'wh_captain' } },
			{ stubPriority: 1, requestIgnoreArrayOrder: true },
		);
		expect(mapping).toMatchObject({ id: expect.any(String), priority: 1, request: { url: ENDPOINTS.createWebhook.path, bodyPatterns: [{ equalToJson: { url: 'https://a.example', event_types: ['signal'] }, ignoreArrayOrder: true, ignoreExtraElements: false }] } });
		const send = (body: unknown, team = 'qa') => fetch(`${server.appUrl}${ENDPOINTS.createWebhook.path}`, { method: 'POST', headers: { ...auth, 'x-team': team, 'content-type': 'application/json' }, body: JSON.stringify(body) });
		const hit = await send({ event_types: ['signal'], url: 'https://a.example' });
		expect([hit.status, hit.headers.get('content-type'), await hit.json()]).toEqual([201, 'application/json; charset=utf-8', { webhook_id: 'wh_captain' }]);
		// Another body, or another header: the service, which refuses an unknown event type.
		expect((await send({ event_types: ['nope'], url: 'https://a.example' })).status).toBe(400);
		expect((await send({ event_types: ['signal'], url: 'https://a.example' }, 'dev')).status).toBe(201);
		const search = new WireMockAPI(server.appUrl, '/v2/jobs', 'GET', { requestEndpointFeature: EndpointFeature.UrlPath, requestQueryParamFeatures: { search: MatchingAttributes.Contains } });
		await search.register({ queryParameters: { search: 'rust' } }, { status: 200, body: { data: [], from: 'captain' } });
		expect(await (await fetch(`${server.apiUrl}/jobs?search=senior%20rust`)).json()).toEqual({ data: [], from: 'captain' });
		expect((await captain.getAllMappings()).length).toBe(2);
		expect(await captain.getMapping(mapping.id)).toMatchObject({ id: mapping.id });
		expect((await captain.deleteMapping(mapping.id)).status).toBe(200);
		expect((await captain.getAllMappings()).length).toBe(1);
		await captain.clearAll();
		expect(await captain.getAllMappings()).toEqual([]);
		expect(await captain.getAllRequests()).toEqual([]);
	});

	it('a mapping it cannot serve: register answers WireMock\'s error body, naming the field', async () => {
		const refused: unknown = await captain.register({ method: 'GET', endpoint: '/v2/jobs/x' }, { status: 200 }, { responseDelay: { type: DelayType.UNIFORM, lower: 1, upper: 5 } });
		expect(refused).toEqual({
			errors: [{ code: 10, source: { pointer: '/response/delayDistribution' }, title: 'Error parsing JSON', detail: expect.stringMatching(/^Invalid mapping: response\.delayDistribution: /) }],
		});
		expect(await captain.getAllMappings()).toEqual([]);
	});

	it('getRequestsForAPI and getUnmatchedRequests read the journal', async () => {
		const api = new WireMockAPI(server.appUrl, '/v2/jobs/job_cap', 'GET');
		await api.register({}, { status: 200, body: { job_id: 'job_cap' } });
		await fetch(`${server.apiUrl}/jobs/job_cap`);
		await fetch(`${server.apiUrl}/collections`, { headers: auth });
		expect(await api.getRequestsForAPI()).toMatchObject([{ request: { method: 'GET', url: '/v2/jobs/job_cap' }, wasMatched: true }]);
		expect(await captain.getUnmatchedRequests()).toMatchObject([{ method: 'GET', url: '/v2/collections' }]);
	});

	it('scenarios and delays through its features; resetAllScenarios', async () => {
		const api = new WireMockAPI(server.appUrl, '/v2/jobs/job_scn', 'GET');
		await api.register({}, { status: 500 }, { scenario: { scenarioName: 'flaky', requiredScenarioState: 'Started', newScenarioState: 'fine' } });
		await api.register({}, { status: 200, body: {} }, { scenario: { scenarioName: 'flaky', requiredScenarioState: 'fine' }, responseDelay: { type: 'FIXED' as never, constantDelay: 200 } });
		expect((await fetch(`${server.apiUrl}/jobs/job_scn`)).status).toBe(500);
		const started = performance.now();
		expect((await fetch(`${server.apiUrl}/jobs/job_scn`)).status).toBe(200);
		expect(performance.now() - started).toBeGreaterThanOrEqual(190);
		expect(await captain.getAllScenarios()).toMatchObject([{ name: 'flaky', state: 'fine' }]);
		expect((await captain.resetAllScenarios()).status).toBe(200);
		expect((await fetch(`${server.apiUrl}/jobs/job_scn`)).status).toBe(500);
	});

	it('faults, written to the socket: reset, empty, malformed chunk, random data', async () => {
		const faults = [WireMockFault.CONNECTION_RESET_BY_PEER, WireMockFault.EMPTY_RESPONSE, WireMockFault.MALFORMED_RESPONSE_CHUNK, WireMockFault.RANDOM_DATA_THEN_CLOSE];
		for (const fault of faults) await captain.register({ method: 'GET', endpoint: `/v2/jobs/${fault}` }, { status: 200 }, { fault });
		const raw = (path: string) => rawRequest(port, `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
		expect(await raw('/v2/jobs/CONNECTION_RESET_BY_PEER')).toEqual({ headers: {}, body: '' });
		expect(await raw('/v2/jobs/EMPTY_RESPONSE')).toEqual({ headers: {}, body: '' });
		const malformed = await raw('/v2/jobs/MALFORMED_RESPONSE_CHUNK');
		expect([malformed.status, malformed.headers['transfer-encoding']]).toEqual([200, 'chunked']);
		expect(malformed.body).toMatch(/^b\r\n\{"partial":\r\nlskdu/);
		const random = await raw('/v2/jobs/RANDOM_DATA_THEN_CLOSE');
		expect([random.status, random.body]).toEqual([undefined, expect.stringContaining('garbage-not-http')]);
		// fetch: a network error, or (the malformed chunk) a 200 whose body cannot be read.
		for (const fault of faults.filter((each) => each !== WireMockFault.MALFORMED_RESPONSE_CHUNK)) await expect(fetch(`${server.apiUrl}/jobs/${fault}`)).rejects.toThrow(TypeError);
		const chunk = await fetch(`${server.apiUrl}/jobs/${WireMockFault.MALFORMED_RESPONSE_CHUNK}`);
		expect(chunk.status).toBe(200);
		await expect(chunk.text()).rejects.toThrow();
		const journal = (await rest.requests.findRequests({ urlPathPattern: '/v2/jobs/[A-Z_]+' })) as { requests: unknown[] };
		expect(journal.requests).toHaveLength(8);
	});
});

describe('the stateful service behind the stubs', () => {
	it('an unmatched request keeps its auth and its rate limit; a stub answer takes no budget', async () => {
		const admin = new WireMockRestClient(limited.appUrl, { logLevel: 'silent', continueOnFailure: true });
		await admin.mappings.createMapping({ request: { method: 'GET', urlPath: '/v2/jobs/job_free' }, response: { status: 200, jsonBody: {} } });
		for (let i = 0; i < 5; i++) expect((await fetch(`${limited.apiUrl}/jobs/job_free`, { headers: auth })).status).toBe(200);
		expect((await fetch(`${limited.apiUrl}/collections`)).status).toBe(400);
		const statuses = [];
		for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.apiUrl}/collections`, { headers: auth })).status);
		expect(statuses).toEqual([200, 200, 200, 429]);
		expect((await fetch(`${limited.apiUrl}/jobs/job_free`, { headers: auth })).status).toBe(200);
	});

	it('a stub may answer a path the service does not have; an unstubbed path stays 404, and a path under a stub\'s pattern never reaches the service\'s routes', async () => {
		await rest.mappings.createMapping({ request: { method: 'GET', urlPathPattern: '/partner/.*', headers: { 'X-Key': { equalTo: 'k' } } }, response: { status: 200, body: 'partner' } });
		const hit = await fetch(`${server.appUrl}/partner/orders`, { headers: { 'x-key': 'k' } });
		expect([hit.status, await hit.text()]).toEqual([200, 'partner']);
		expect((await fetch(`${server.appUrl}/elsewhere`)).status).toBe(404);
		// Under the pattern but not matched (no header): 404, not the collections the handlers' `*` prefix would find, with the diff against the stub.
		const miss = await fetch(`${server.appUrl}/partner/v2/collections`, { headers: auth });
		expect([miss.status, miss.headers.get('content-type')]).toEqual([404, 'text/plain; charset=utf-8']);
		expect(await miss.text()).toMatch(/Request was not matched[\s\S]*^x-key: \[equalTo\] k +\| x-key: \(absent\) +<<<<< Header does not match$/m);
	});
});

describe('PATCH, HEAD and OPTIONS stubs (and ANY)', () => {
	const journalMethods = async () => ((await fetch(`${server.appUrl}/__mock/requests`).then((r) => r.json())) as { data: { method: string; path: string; stub_id: string | null }[] }).data;

	it('PATCH: a stub answers it, on a path the service has or not; on a path only stubs serve, any unmatched request is the 404 diff; on the service\'s path with no PATCH stub: 405 as before', async () => {
		const mapping = (await rest.mappings.createMapping({ request: { method: 'PATCH', urlPath: '/partner/orders/1', headers: { 'X-Key': { equalTo: 'k' } } }, response: { status: 200, jsonBody: { patched: true } } })) as { id: string };
		await captain.register({ method: 'PATCH', endpoint: '/v2/jobs/job_patch' }, { status: 202, body: { from: 'captain' } });
		const patch = (path: string, headers: Record<string, string> = { 'x-key': 'k' }) => fetch(`${server.appUrl}${path}`, { method: 'PATCH', headers: { 'content-type': 'application/json', ...headers }, body: '{"state": "shipped"}' });
		const hit = await patch('/partner/orders/1');
		expect([hit.status, await hit.json()]).toEqual([200, { patched: true }]);
		const onService = await patch('/v2/jobs/job_patch', {});
		expect([onService.status, await onService.json()]).toEqual([202, { from: 'captain' }]);
		// The stub's path with its method but not its header, or another method: no stub matched, on a path only stubs
		// serve: WireMock's 404 diff against the closest stub (README, "Near misses and the 404 diff").
		const missed = await patch('/partner/orders/1', {});
		expect([missed.status, missed.headers.get('content-type'), await missed.text()]).toEqual([404, expect.stringMatching(/^text\/plain/), expect.stringContaining('Request was not matched')]);
		const put = await fetch(`${server.appUrl}/partner/orders/1`, { method: 'PUT' });
		expect([put.status, await put.text()]).toEqual([404, expect.stringContaining('Request was not matched')]);
		const noStub = await patch('/v2/collections', {});
		expect([noStub.status, noStub.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
		// Every request on the record, each with its method as sent; only the stubs' answers name a stub.
		expect((await journalMethods()).map(({ method, path, stub_id }) => [method, path, stub_id])).toEqual([
			['PATCH', '/partner/orders/1', mapping.id],
			['PATCH', '/v2/jobs/job_patch', expect.any(String)],
			['PATCH', '/partner/orders/1', null],
			['PUT', '/partner/orders/1', null],
			['PATCH', '/v2/collections', null],
		]);
		expect((await fetch(`${server.appUrl}/__mock/requests?method=patch`).then((r) => r.json()) as { data: unknown[] }).data).toHaveLength(4);
		expect(await rest.requests.getCount({ method: 'PATCH' })).toMatchObject({ count: 4 });
	});

	it('HEAD: a HEAD stub answers it without a body; with none, the GET stub or the service answers, without the body, its Content-Length kept', async () => {
		await rest.mappings.createMapping({ request: { method: 'HEAD', urlPath: '/v2/jobs/job_head' }, response: { status: 204, headers: { 'X-Stub': 'head' } } });
		await rest.mappings.createMapping({ request: { method: 'GET', urlPath: '/v2/jobs/job_head' }, response: { status: 200, headers: { 'X-Stub': 'get' }, body: 'the GET body' } });
		await rest.mappings.createMapping({ request: { method: 'GET', urlPath: '/v2/jobs/job_get' }, response: { status: 200, headers: { 'X-Stub': 'get' }, body: 'the GET body' } });
		const head = (path: string) => rawRequest(port, `HEAD ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n\r\n`);
		expect(await head('/v2/jobs/job_head')).toMatchObject({ status: 204, headers: { 'x-stub': 'head' }, body: '' });
		expect(await head('/v2/jobs/job_get')).toMatchObject({ status: 200, headers: { 'x-stub': 'get', 'content-length': String('the GET body'.length) }, body: '' });
		// The service's own answer to HEAD, as before: its GET's status and length, no body.
		const service = await rawRequest(port, `HEAD /v2/collections HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${DEMO_TOKEN}\r\nconnection: close\r\n\r\n`);
		expect([service.status, Number(service.headers['content-length']) > 100, service.body]).toEqual([200, true, '']);
		expect((await journalMethods()).map(({ method, path }) => `${method} ${path}`)).toEqual(['HEAD /v2/jobs/job_head', 'HEAD /v2/jobs/job_get', 'HEAD /v2/collections']);
	});

	it('OPTIONS: a stub answers a plain OPTIONS request; a CORS preflight is always the mock\'s (204, Allow naming the stubs\' methods), and a page not allowed gets 403 before any stub', async () => {
		await rest.mappings.createMapping({ request: { method: 'OPTIONS', urlPath: '/partner/things' }, response: { status: 200, headers: { Allow: 'GET' }, jsonBody: { options: 'stub' } } });
		await rest.mappings.createMapping({ request: { method: 'POST', urlPath: '/partner/things' }, response: { status: 201 } });
		await rest.mappings.createMapping({ request: { method: 'OPTIONS', urlPath: '/v2/collections' }, response: { status: 200, jsonBody: { options: 'on the service' } } });
		const plain = await fetch(`${server.appUrl}/partner/things`, { method: 'OPTIONS' });
		expect([plain.status, plain.headers.get('allow'), await plain.json()]).toEqual([200, 'GET', { options: 'stub' }]);
		const onService = await fetch(`${server.appUrl}/v2/collections`, { method: 'OPTIONS' });
		expect([onService.status, await onService.json()]).toEqual([200, { options: 'on the service' }]);
		const preflight = (path: string, origin: string) => fetch(`${server.appUrl}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
		const local = await preflight('/partner/things', 'http://localhost:3000');
		expect([local.status, local.headers.get('allow'), local.headers.get('access-control-allow-origin'), local.headers.get('access-control-allow-methods'), await local.text()]).toEqual([204, 'OPTIONS, POST', 'http://localhost:3000', 'OPTIONS, POST', '']);
		const service = await preflight('/v2/collections', 'http://localhost:3000');
		expect([service.status, service.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
		const evil = await preflight('/partner/things', 'https://evil.example');
		expect([evil.status, evil.headers.get('access-control-allow-origin')]).toEqual([403, null]);
		const evilPlain = await fetch(`${server.appUrl}/partner/things`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
		expect(evilPlain.status).toBe(403);
		// Only the two plain OPTIONS requests reached a stub (a preflight is not journaled, a refusal neither).
		expect((await journalMethods()).map(({ method, path }) => `${method} ${path}`)).toEqual(['OPTIONS /partner/things', 'OPTIONS /v2/collections']);
	});

	it('ANY: answers PATCH, HEAD (no body) and a plain OPTIONS, never a preflight; a page not allowed gets 403 for each', async () => {
		await rest.mappings.createMapping({ request: { method: 'ANY', urlPath: '/partner/any' }, response: { status: 200, body: 'any' } });
		for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
			const answer = await fetch(`${server.appUrl}/partner/any`, { method });
			expect([method, answer.status, await answer.text()]).toEqual([method, 200, 'any']);
		}
		expect(await rawRequest(port, `HEAD /partner/any HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n\r\n`)).toMatchObject({ status: 200, headers: { 'content-length': '3' }, body: '' });
		const preflight = await fetch(`${server.appUrl}/partner/any`, { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'PATCH' } });
		expect([preflight.status, preflight.headers.get('allow')]).toEqual([204, 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT']);
		for (const method of ['PATCH', 'HEAD', 'OPTIONS']) {
			const refused = await fetch(`${server.appUrl}/partner/any`, { method, headers: { origin: 'https://evil.example' } });
			expect([method, refused.status]).toEqual([method, 403]);
		}
		expect((await journalMethods()).map(({ method }) => method)).toEqual(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
	});
});

describe('local-only, as the control routes', () => {
	it('a changing admin call a page could send cross-site is 403: from a page not allowed (the origin gate), or from an allowed one without a JSON type or X-Mock-Control; with either it runs', async () => {
		const body = JSON.stringify({ request: { urlPath: '/v2/jobs/x' }, response: { status: 201 } });
		for (const [origin, message] of [['https://evil.example', /A page on "https:\/\/evil\.example" may not call this path/], ['http://localhost:3000', /Content-Type: application\/json.*X-Mock-Control/]] as const) {
			for (const [method, path] of [['POST', '/__admin/mappings'], ['POST', '/__admin/reset'], ['DELETE', '/__admin/mappings'], ['POST', '/__admin/requests/find']]) {
				const refused = await rawRequest(port, `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\norigin: ${origin}\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`, body);
				expect(refused.status, `${origin} ${method} ${path}`).toBe(403);
				expect(errorOf(JSON.parse(refused.body)).message).toMatch(message);
			}
		}
		expect(await rest.mappings.getAllMappings()).toMatchObject({ meta: { total: 0 } });
		const json = await fetch(`${server.appUrl}/__admin/mappings`, { method: 'POST', headers: { origin: 'http://localhost:3000', 'content-type': 'application/json' }, body });
		expect(json.status).toBe(201);
		const header = await fetch(`${server.appUrl}/__admin/mappings`, { method: 'DELETE', headers: { origin: 'http://localhost:3000', 'x-mock-control': '1' } });
		expect(header.status).toBe(200);
	});

	it('the admin API refuses another origin\'s page (no CORS header), and a Host that is not local', async () => {
		const read = await fetch(`${server.appUrl}/__admin/mappings`, { headers: { origin: 'https://evil.example' } });
		expect([read.status, read.headers.get('access-control-allow-origin')]).toEqual([403, null]);
		const rebinding = await rawRequest(port, `GET /__admin/mappings HTTP/1.1\r\nhost: attacker.example\r\nconnection: close\r\n\r\n`);
		expect(rebinding.status).toBe(403);
	});

	it('holds at most 1,000 stubs: the next is a 409, and replacing one still works', async () => {
		for (let i = 0; i < 1000; i++) server.service.stubs.add({ request: { urlPath: `/v2/jobs/job_cap_${i}` }, response: { status: 201 } });
		const [first] = server.service.stubs.list();
		const full = await fetch(`${server.appUrl}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"request": {"urlPath": "/v2/jobs/one_more"}}' });
		expect(errorOf(await full.json())).toMatchObject({ status: 409, message: expect.stringMatching(/^The mock holds at most 1000 stubs/) });
		const replaced = await fetch(`${server.appUrl}/__admin/mappings/${first.id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"request": {"urlPath": "/v2/jobs/replaced"}, "response": {"status": 202}}' });
		expect(replaced.status).toBe(200);
		expect((await fetch(`${server.apiUrl}/jobs/replaced`)).status).toBe(202);
	});

	it('a bad admin body or query is a 400, a missing mapping a 404', async () => {
		const post = (body: string) => fetch(`${server.appUrl}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
		expect(errorOf(await (await post('{')).json())).toMatchObject({ status: 400, message: 'The body must be JSON' });
		expect(errorOf(await (await post('')).json())).toMatchObject({ status: 400, message: 'The body must be JSON (it is empty)' });
		expect(errorOf(await (await post('[]')).json())).toMatchObject({ status: 400, message: expect.stringMatching(/^Invalid mapping: mapping: must be a JSON object/) });
		const find = await fetch(`${server.appUrl}/__admin/requests/find`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"urlPath": "/a", "foo": 1}' });
		expect(errorOf(await find.json())).toMatchObject({ status: 400, message: expect.stringMatching(/^Invalid request pattern: request pattern\.foo: is no request field/) });
		expect((await fetch(`${server.appUrl}/__admin/requests?limit=0`)).status).toBe(400);
		expect((await fetch(`${server.appUrl}/__admin/requests?since=yesterday`)).status).toBe(400);
		expect((await fetch(`${server.appUrl}/__admin/mappings?sort=name`)).status).toBe(400);
		expect((await fetch(`${server.appUrl}/__admin/mappings/00000000-0000-4000-8000-000000000001`)).status).toBe(404);
		expect((await fetch(`${server.appUrl}/__admin/requests/not-an-id`)).status).toBe(404);
		const patch = await fetch(`${server.appUrl}/__admin/mappings`, { method: 'PATCH' });
		expect([patch.status, patch.headers.get('allow')]).toEqual([405, 'DELETE, GET, HEAD, OPTIONS, POST']);
	});
});
