// WireMock's stubs in-process (mock.stubs, behind msw's setupServer): each request matcher, each response field, priority, scenarios, the passthrough to the stateful service, the journal of stub answers, the 400s for what is not served, and MSW's own server.use() beside the mock's handlers.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../src/base/contract.mts';
import { createMockService, type MockService } from '../src/service.mts';
import { MappingError } from '../src/wiremock/index.mts';
import { API_URL, APP_URL, DEMO_TOKEN, SMALL } from './harness.mts';

let mock: MockService;
const server = setupServer();
beforeAll(async () => {
	mock = await createMockService(SMALL);
	server.resetHandlers(...mock.handlers);
	server.listen({ onUnhandledFrame: 'error' });
});
beforeEach(async () => {
	await mock.reset();
});
afterEach(() => server.resetHandlers(...mock.handlers));
afterAll(() => {
	server.close();
	mock.close();
});

const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
const get = (path: string, headers: Record<string, string> = auth) => fetch(`${API_URL}${path}`, { headers });
const webhooksUrl = `${APP_URL}${ENDPOINTS.createWebhook.path}`;
const postWebhooks = (body: string, headers: Record<string, string> = {}) =>
	fetch(webhooksUrl, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', ...headers }, body });
/** A stub's answer is told from the service's by its status (the service never answers 299). */
const STUB = 299;

describe('PATCH, HEAD and OPTIONS in-process', () => {
	it('a PATCH stub answers PATCH; a HEAD stub HEAD, else HEAD is the GET\'s answer without a body (the service\'s too); a plain OPTIONS is a stub\'s, a preflight the mock\'s', async () => {
		mock.stubs.add({ request: { method: 'PATCH', urlPath: '/v2/jobs/job_p' }, response: { status: STUB, jsonBody: { patched: true } } });
		mock.stubs.add({ request: { method: 'HEAD', urlPath: '/v2/jobs/job_h' }, response: { status: 204, headers: { 'X-Stub': 'head' } } });
		mock.stubs.add({ request: { method: 'OPTIONS', urlPath: '/v2/jobs/job_o' }, response: { status: STUB, body: 'options' } });
		const patched = await fetch(`${API_URL}/jobs/job_p`, { method: 'PATCH', body: '{}' });
		expect([patched.status, await patched.json()]).toEqual([STUB, { patched: true }]);
		const head = await fetch(`${API_URL}/jobs/job_h`, { method: 'HEAD' });
		expect([head.status, head.headers.get('x-stub'), await head.text()]).toEqual([204, 'head', '']);
		const service = await fetch(`${API_URL}/collections`, { method: 'HEAD', headers: auth });
		expect([service.status, Number(service.headers.get('content-length')) > 100, await service.text()]).toEqual([200, true, '']);
		const options = await fetch(`${API_URL}/jobs/job_o`, { method: 'OPTIONS' });
		expect([options.status, await options.text()]).toEqual([STUB, 'options']);
		const preflight = await fetch(`${API_URL}/jobs/job_o`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' } });
		expect([preflight.status, preflight.headers.get('allow'), preflight.headers.get('access-control-allow-origin')]).toEqual([204, 'GET, HEAD, OPTIONS', 'http://localhost:5173']);
		expect(mock.requests().data.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual(['PATCH /v2/jobs/job_p 299', 'HEAD /v2/jobs/job_h 204', 'HEAD /v2/collections 200', 'OPTIONS /v2/jobs/job_o 299']);
	});
});

describe('a stub answers the requests it matches, and only those', () => {
	it('GET urlPath: the stub answers its path; another path, and the same path without a match, are the service (auth included)', async () => {
		mock.stubs.add({ request: { method: 'GET', urlPath: '/v2/jobs/job_stubbed' }, response: { status: 200, jsonBody: { job_id: 'job_stubbed', title: 'From a stub' } } });
		const stubbed = await get('/jobs/job_stubbed');
		expect([stubbed.status, stubbed.headers.get('content-type'), await stubbed.json()]).toEqual([200, 'application/json', { job_id: 'job_stubbed', title: 'From a stub' }]);
		// The stub needs no token: it is the test's own answer.
		expect((await get('/jobs/job_stubbed', {})).status).toBe(200);
		const other = await get('/jobs/job_unknown');
		expect(other.status).toBe(404);
		expect((await get('/jobs/job_unknown', {})).status).toBe(400);
		const collections = await get('/collections');
		expect(collections.status).toBe(200);
		expect(((await collections.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
	});

	it('url is the path and query exactly; urlPath ignores the query', async () => {
		mock.stubs.add({ request: { method: 'GET', url: '/v2/jobs/job_a?x=1' }, response: { status: STUB } });
		mock.stubs.add({ request: { method: 'GET', urlPath: '/v2/jobs/job_b' }, response: { status: STUB } });
		expect((await get('/jobs/job_a?x=1')).status).toBe(STUB);
		expect((await get('/jobs/job_a?x=2')).status).toBe(404);
		expect((await get('/jobs/job_a')).status).toBe(404);
		expect((await get('/jobs/job_b?anything=here')).status).toBe(STUB);
	});

	it('urlPathPattern and urlPattern are regular expressions over the whole path (and query)', async () => {
		mock.stubs.add({ request: { method: 'GET', urlPathPattern: '/v2/jobs/stub_[0-9]+' }, response: { status: STUB } });
		mock.stubs.add({ request: { method: 'GET', urlPattern: '/v2/jobs/q_one\\?page=[0-9]' }, response: { status: 298 } });
		expect((await get('/jobs/stub_42')).status).toBe(STUB);
		expect((await get('/jobs/stub_42?page=3')).status).toBe(STUB);
		expect((await get('/jobs/stub_4x')).status).toBe(404);
		expect((await get('/jobs/xstub_42')).status).toBe(404);
		expect((await get('/jobs/q_one?page=7')).status).toBe(298);
		expect((await get('/jobs/q_one?page=77')).status).toBe(404);
		expect((await get('/jobs/q_one')).status).toBe(404);
	});

	it('method: GET does not answer POST; ANY (or none) answers every method', async () => {
		mock.stubs.add({ request: { method: 'GET', urlPath: ENDPOINTS.createWebhook.path }, response: { status: STUB } });
		expect((await postWebhooks('{}')).status).toBe(400);
		mock.stubs.add({ request: { method: 'ANY', urlPath: ENDPOINTS.createWebhook.path }, response: { status: 298 } });
		expect((await postWebhooks('{}')).status).toBe(298);
		mock.stubs.reset();
		mock.stubs.add({ request: { urlPath: ENDPOINTS.createWebhook.path }, response: { status: 297 } });
		expect((await postWebhooks('{}')).status).toBe(297);
	});

	it('a stub with no URL rule answers every path of its method, the mock\'s own routes excepted', async () => {
		mock.stubs.add({ request: { method: 'GET' }, response: { status: STUB } });
		expect((await get('/collections')).status).toBe(STUB);
		expect((await fetch(`${APP_URL}/__mock/accounts`)).status).toBe(200);
		expect((await fetch(`${APP_URL}/__admin/mappings`)).status).toBe(200);
	});
});

describe('request matchers', () => {
	const cases: [string, Record<string, unknown>, Record<string, string>, Record<string, string>][] = [
		['query equalTo', { queryParameters: { q: { equalTo: 'Rust' } } }, { q: 'Rust' }, { q: 'rust' }],
		['query equalTo caseInsensitive', { queryParameters: { q: { equalTo: 'Rust', caseInsensitive: true } } }, { q: 'rUST' }, { q: 'Go' }],
		['query contains', { queryParameters: { q: { contains: 'us' } } }, { q: 'Rust' }, { q: 'Go' }],
		['query doesNotContain', { queryParameters: { q: { doesNotContain: 'us' } } }, { q: 'Go' }, { q: 'Rust' }],
		['query matches (the whole value)', { queryParameters: { n: { matches: '[0-9]{2}' } } }, { n: '42' }, { n: '421' }],
		['query doesNotMatch', { queryParameters: { n: { doesNotMatch: '[0-9]+' } } }, { n: 'x' }, { n: '7' }],
		['query absent', { queryParameters: { debug: { absent: true } } }, {}, { debug: '1' }],
		['query equalToJson', { queryParameters: { f: { equalToJson: '{"a": 1}' } } }, { f: '{ "a" : 1 }' }, { f: '{"a": 2}' }],
		['query matchesJsonPath', { queryParameters: { f: { matchesJsonPath: '$.a' } } }, { f: '{"a": 1}' }, { f: '{"b": 1}' }],
		['header equalTo (name in any case)', { headers: { 'X-Trace': { equalTo: 'abc' } } }, { 'x-trace': 'abc' }, { 'x-trace': 'abd' }],
		['header contains', { headers: { Accept: { contains: 'json' } } }, { accept: 'application/json' }, { accept: 'text/html' }],
		['header matches', { headers: { 'X-Id': { matches: 'id-[a-f]+' } } }, { 'x-id': 'id-cafe' }, { 'x-id': 'id-cafe1' }],
		['header absent', { headers: { 'X-Debug': { absent: true } } }, {}, { 'x-debug': 'on' }],
		['header doesNotMatch needs the header', { headers: { 'X-Id': { doesNotMatch: 'x' } } }, { 'x-id': 'y' }, {}],
	];
	it.each(cases)('%s', async (_name, pattern, hit, miss) => {
		mock.stubs.add({ request: { method: 'GET', urlPath: '/v2/jobs/job_matcher', ...pattern }, response: { status: STUB } });
		const send = (values: Record<string, string>) => {
			const isHeader = 'headers' in pattern;
			const query = isHeader ? '' : `?${new URLSearchParams(values)}`;
			return get(`/jobs/job_matcher${query}`, isHeader ? { ...auth, ...values } : auth);
		};
		expect((await send(hit)).status).toBe(STUB);
		expect((await send(miss)).status).toBe(404);
	});

	const body = JSON.stringify({ name: 'Ada', tags: ['x', 'y'], items: [{ id: 1, price: 5 }, { id: 2, price: 50 }], nested: { deep: { v: true } } });
	const bodyCases: [string, Record<string, unknown>, string][] = [
		['equalTo', { equalTo: body }, `${body} `],
		['contains', { contains: '"Ada"' }, body.replace('Ada', 'Bob')],
		['doesNotContain', { doesNotContain: 'Bob' }, body.replace('Ada', 'Bob')],
		['matches', { matches: '.*"name":"A[a-z]+".*' }, body.replace('Ada', 'bob')],
		['doesNotMatch', { doesNotMatch: '.*Bob.*' }, body.replace('Ada', 'Bob')],
		['equalToJson (a string; key order and spacing do not count)', { equalToJson: JSON.stringify({ nested: { deep: { v: true } }, items: [{ price: 5, id: 1 }, { id: 2, price: 50 }], tags: ['x', 'y'], name: 'Ada' }) }, body.replace('Ada', 'Bob')],
		['equalToJson (a JSON value) with ignoreArrayOrder', { equalToJson: { name: 'Ada', tags: ['y', 'x'], items: [{ id: 2, price: 50 }, { id: 1, price: 5 }], nested: { deep: { v: true } } }, ignoreArrayOrder: true }, body.replace('"x"', '"z"')],
		['equalToJson with ignoreExtraElements', { equalToJson: { name: 'Ada', tags: ['x'] }, ignoreExtraElements: true }, body.replace('"tags":["x"', '"tags":["q"')],
		['matchesJsonPath: a field', { matchesJsonPath: '$.name' }, JSON.stringify({ other: 1 })],
		['matchesJsonPath: a null field is no match', { matchesJsonPath: '$.nested.deep.v' }, JSON.stringify({ nested: { deep: { v: null } } })],
		['matchesJsonPath: bracket names and an index', { matchesJsonPath: "$['items'][1].price" }, JSON.stringify({ items: [{ price: 1 }] })],
		['matchesJsonPath: a negative index', { matchesJsonPath: '$.tags[-1]' }, JSON.stringify({ tags: [] })],
		['matchesJsonPath: a filter', { matchesJsonPath: '$.items[?(@.price > 10)]' }, body.replace('"price":50', '"price":9')],
		['matchesJsonPath: a filter with && and ==', { matchesJsonPath: "$.items[?(@.id == 2 && @.price >= 50)]" }, body.replace('"price":50', '"price":49')],
		['matchesJsonPath: a filter with =~', { matchesJsonPath: '$[?(@.name =~ /A.a/)]' }, body.replace('Ada', 'Bob')],
		['matchesJsonPath: recursive descent', { matchesJsonPath: '$..v' }, JSON.stringify({ nested: {} })],
		['matchesJsonPath: a wildcard', { matchesJsonPath: '$.nested.*' }, JSON.stringify({ nested: {} })],
		['matchesJsonPath with equalTo', { matchesJsonPath: { expression: '$.name', equalTo: 'Ada' } }, body.replace('Ada', 'Bob')],
		['matchesJsonPath with contains over a list', { matchesJsonPath: { expression: '$.tags', contains: 'y' } }, body.replace('"y"', '"z"')],
		['matchesJsonPath with equalToJson', { matchesJsonPath: { expression: '$.nested', equalToJson: { deep: { v: true } } } }, body.replace('"v":true', '"v":false')],
		['matchesJsonPath with absent', { matchesJsonPath: { expression: '$.missing', absent: true } }, JSON.stringify({ missing: 1 })],
	];
	it.each(bodyCases)('bodyPatterns %s', async (_name, pattern, miss) => {
		mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path, bodyPatterns: [pattern] }, response: { status: STUB } });
		expect((await postWebhooks(body)).status).toBe(STUB);
		// No match: the service's own answer to the webhook body (400: it is no webhook setting).
		expect((await postWebhooks(miss)).status).toBe(400);
	});

	it('every body pattern must match, and a body that is not JSON matches no JSON pattern', async () => {
		mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path, bodyPatterns: [{ contains: 'a' }, { contains: 'b' }] }, response: { status: STUB } });
		mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path, bodyPatterns: [{ matchesJsonPath: '$' }] }, response: { status: 298 } });
		expect((await postWebhooks('ab')).status).toBe(STUB);
		expect((await postWebhooks('a')).status).toBe(400);
		expect((await postWebhooks('[1]')).status).toBe(298);
	});

	it('a body nested deeper than the matchers can walk is no match (the service answers), and such a mapping is a 400', async () => {
		const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
		mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path, bodyPatterns: [{ equalToJson: [[1]] }] }, response: { status: STUB } });
		mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path, bodyPatterns: [{ matchesJsonPath: '$..x' }] }, response: { status: 298 } });
		expect((await postWebhooks(deep)).status).toBe(400);
		expect((await postWebhooks('[[1]]')).status).toBe(STUB);
		expect(() => mock.stubs.add({ request: {}, response: { jsonBody: JSON.parse(deep) as unknown } })).toThrow(/^mapping: is nested too deeply/);
		expect(() => mock.requests.count({ bodyPatterns: [{ equalToJson: deep }] })).toThrow(/equalToJson: is nested too deeply/);
	});

	it('an unmatched POST reaches the service with its body whole (the stub read a copy)', async () => {
		mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path, bodyPatterns: [{ contains: 'never' }] }, response: { status: STUB } });
		const created = await postWebhooks(JSON.stringify({ url: 'https://receiver.example/hook', event_types: ['job_created'] }));
		expect(created.status).toBe(201);
		expect(((await created.json()) as { url: string }).url).toBe('https://receiver.example/hook');
	});
});

describe('response fields', () => {
	it('status, body (sent as given, no content type added), headers (a list is several values)', async () => {
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_r' }, response: { status: 418, body: 'short and stout', headers: { 'X-One': '1', 'X-Many': ['a', 'b'] } } });
		const answer = await get('/jobs/job_r');
		expect([answer.status, await answer.text(), answer.headers.get('x-one'), answer.headers.get('x-many'), answer.headers.get('content-type')]).toEqual([418, 'short and stout', '1', 'a, b', null]);
	});

	it('jsonBody gets application/json unless the headers name a type; base64Body is sent as its bytes', async () => {
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_j' }, response: { jsonBody: [1, { a: null }], headers: { 'Content-Type': 'application/vnd.x+json' } } });
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_b64' }, response: { base64Body: Buffer.from([0, 1, 2, 255]).toString('base64') } });
		const json = await get('/jobs/job_j');
		expect([json.status, json.headers.get('content-type'), await json.json()]).toEqual([200, 'application/vnd.x+json', [1, { a: null }]]);
		const bytes = await get('/jobs/job_b64');
		expect([...new Uint8Array(await bytes.arrayBuffer())]).toEqual([0, 1, 2, 255]);
	});

	it('fixedDelayMilliseconds holds the answer at least that long', async () => {
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_slow' }, response: { status: STUB, fixedDelayMilliseconds: 300 } });
		const started = performance.now();
		expect((await get('/jobs/job_slow')).status).toBe(STUB);
		expect(performance.now() - started).toBeGreaterThanOrEqual(290);
	});

	it.each(['CONNECTION_RESET_BY_PEER', 'EMPTY_RESPONSE', 'RANDOM_DATA_THEN_CLOSE'])('fault %s: the fetch fails (a network error in-process)', async (fault) => {
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_fault' }, response: { fault } });
		await expect(get('/jobs/job_fault')).rejects.toThrow(TypeError);
		expect(mock.requests({ path: '/v2/jobs/job_fault' }).data.map((entry) => entry.status)).toEqual([0]);
	});

	it('fault MALFORMED_RESPONSE_CHUNK: a 200 whose body fails while it is read', async () => {
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_chunk' }, response: { fault: 'MALFORMED_RESPONSE_CHUNK' } });
		const answer = await get('/jobs/job_chunk');
		expect(answer.status).toBe(200);
		await expect(answer.text()).rejects.toThrow();
	});
});

describe('priority and scenarios', () => {
	it('priority 1 is tried before 5 (the default) whatever their order; among equals the newest wins', async () => {
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_p' }, response: { status: 291 }, priority: 1 });
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_p' }, response: { status: 292 } });
		expect((await get('/jobs/job_p')).status).toBe(291);
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_q' }, response: { status: 293 } });
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_q' }, response: { status: 294 } });
		expect((await get('/jobs/job_q')).status).toBe(294);
		expect(mock.stubs.list().map((stub) => (stub.response as { status: number }).status)).toEqual([291, 294, 293, 292]);
	});

	it('priority holds across URL rules and methods (url, urlPath, patterns, ANY, no URL), and a stub whose body does not fit gives way to the next', async () => {
		mock.stubs.add({ request: { method: 'GET', urlPath: '/v2/jobs/job_k' }, response: { status: 295 } });
		expect((await get('/jobs/job_k?x=1')).status).toBe(295);
		mock.stubs.add({ request: { method: 'GET', url: '/v2/jobs/job_k?x=1' }, response: { status: 294 }, priority: 4 });
		expect((await get('/jobs/job_k?x=1')).status).toBe(294);
		expect((await get('/jobs/job_k?x=2')).status).toBe(295);
		mock.stubs.add({ request: { method: 'ANY', urlPathPattern: '/v2/jobs/job_.*' }, response: { status: 293 }, priority: 3 });
		expect((await get('/jobs/job_k?x=1')).status).toBe(293);
		mock.stubs.add({ request: { method: 'GET', urlPattern: '/v2/jobs/job_k\\?x=1' }, response: { status: 292 }, priority: 2 });
		expect((await get('/jobs/job_k?x=1')).status).toBe(292);
		expect((await get('/jobs/job_k?x=2')).status).toBe(293);
		mock.stubs.add({ request: { headers: { 'x-first': { equalTo: 'yes' } } }, response: { status: 291 }, priority: 1 });
		expect((await get('/jobs/job_k?x=1', { 'x-first': 'yes' })).status).toBe(291);
		expect((await get('/jobs/job_k?x=1')).status).toBe(292);
		mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path, bodyPatterns: [{ contains: 'never' }] }, response: { status: 281 }, priority: 1 });
		mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path, bodyPatterns: [{ contains: 'a.example' }] }, response: { status: 282 } });
		expect((await postWebhooks('{"url": "https://a.example"}')).status).toBe(282);
	});

	it('stubs narrowed by a query parameter or header answer the requests that have it (names matched as WireMock does), the rest go to the service', async () => {
		mock.stubs.add({ request: { urlPath: '/v2/collections', queryParameters: { 'the page': { equalTo: '2' } } }, response: { status: 291 } });
		mock.stubs.add({ request: { urlPath: '/v2/collections', headers: { 'X-Trace': { equalTo: 't1' } } }, response: { status: 292 } });
		expect((await get('/collections')).status).toBe(200);
		expect((await get('/collections?the%20page=2')).status).toBe(291);
		expect((await get('/collections?the+page=2')).status).toBe(291);
		expect((await get('/collections?the%20page=3')).status).toBe(200);
		expect((await get('/collections', { ...auth, 'x-trace': 't1' })).status).toBe(292);
		expect((await get('/collections', { ...auth, 'x-trace': 't2' })).status).toBe(200);
	});

	it('a scenario starts in "Started", moves with newScenarioState, and resets', async () => {
		const scenario = { scenarioName: 'job lifecycle' };
		mock.stubs.add({ ...scenario, requiredScenarioState: 'Started', newScenarioState: 'deleted', request: { urlPath: '/v2/jobs/job_s' }, response: { status: 200, jsonBody: { state: 'live' } } });
		mock.stubs.add({ ...scenario, requiredScenarioState: 'deleted', request: { urlPath: '/v2/jobs/job_s' }, response: { status: 404, jsonBody: { state: 'gone' } } });
		expect(mock.stubs.scenarios()).toMatchObject([{ name: 'job lifecycle', state: 'Started', possibleStates: ['Started', 'deleted'] }]);
		const answers = [];
		for (let i = 0; i < 3; i++) answers.push((await (await get('/jobs/job_s')).json()) as unknown);
		expect(answers).toEqual([{ state: 'live' }, { state: 'gone' }, { state: 'gone' }]);
		expect(mock.stubs.scenarios()[0].state).toBe('deleted');
		mock.stubs.resetScenarios();
		expect(await (await get('/jobs/job_s')).json()).toEqual({ state: 'live' });
	});

	it('update replaces a stub under its id, remove deletes it, reset (and the mock\'s reset) deletes them all', async () => {
		const { id } = mock.stubs.add({ name: 'first', request: { urlPath: '/v2/jobs/job_u' }, response: { status: 291 } });
		expect(mock.stubs.update(id, { request: { urlPath: '/v2/jobs/job_u' }, response: { status: 292 } })).toMatchObject({ id, uuid: id });
		expect((await get('/jobs/job_u')).status).toBe(292);
		expect(mock.stubs.update('00000000-0000-4000-8000-000000000000', { request: {} })).toBeUndefined();
		expect(mock.stubs.remove(id)).toBe(true);
		expect(mock.stubs.remove(id)).toBe(false);
		expect((await get('/jobs/job_u')).status).toBe(404);
		mock.stubs.add({ request: { urlPath: '/v2/jobs/job_u' }, response: { status: 291 } });
		await mock.reset();
		expect(mock.stubs.list()).toEqual([]);
	});
});

describe('the journal keeps headers and bodies, and stub answers', () => {
	it('a stub answer is journaled with its stub id, headers (Authorization redacted) and body', async () => {
		const { id } = mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path }, response: { status: 201, jsonBody: {} } });
		expect((await postWebhooks('{"url": "https://a.example"}', { 'x-trace': 't1' })).status).toBe(201);
		expect((await get('/collections')).status).toBe(200);
		const [stubbed, served] = mock.requests().data;
		expect(stubbed).toMatchObject({ method: 'POST', path: ENDPOINTS.createWebhook.path, status: 201, account_id: 'acc_demo', stub_id: id, body: '{"url": "https://a.example"}', body_truncated: false });
		expect(stubbed.headers).toMatchObject({ authorization: 'Bearer [redacted]', 'x-trace': 't1', 'content-type': 'application/json' });
		expect(served).toMatchObject({ path: '/v2/collections', status: 200, stub_id: null, body: null });
		expect(JSON.stringify(mock.requests())).not.toContain(DEMO_TOKEN);
	});

	it("the upload's access_token is redacted in the kept body; a body over 64 KiB is kept cut", async () => {
		const upload = await fetch(`${APP_URL}${ENDPOINTS.subscriberUpload.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email_addresses: 'a@example.com', access_token: DEMO_TOKEN }) });
		expect(upload.status).toBe(200);
		const big = 'x'.repeat(70 * 1024);
		expect((await postWebhooks(big)).status).toBe(400);
		const [uploaded, large] = mock.requests().data;
		expect(uploaded.body).toBe('{"email_addresses":"a@example.com","access_token":"[redacted]"}');
		expect([large.body?.length, large.body_truncated]).toEqual([64 * 1024, true]);
	});
});

describe('request verification in-process: mock.requests.find and count', () => {
	it('find and count with the stubs\' matchers, over stub and service answers alike', async () => {
		mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path }, response: { status: 201 } });
		await postWebhooks(JSON.stringify({ url: 'https://one.example', event_types: ['signal'] }));
		await postWebhooks(JSON.stringify({ url: 'https://two.example', event_types: ['job_created'] }));
		await get('/jobs?search=rust');
		expect(mock.requests.count({ method: 'POST', urlPath: ENDPOINTS.createWebhook.path })).toBe(2);
		expect(mock.requests.count({ bodyPatterns: [{ matchesJsonPath: { expression: '$.event_types[0]', equalTo: 'signal' } }] })).toBe(1);
		expect(mock.requests.count({ urlPath: '/v2/jobs', queryParameters: { search: { equalTo: 'rust' } } })).toBe(1);
		expect(mock.requests.count({ headers: { Authorization: { equalTo: 'Bearer [redacted]' } } })).toBe(3);
		const [found] = mock.requests.find({ method: 'POST', bodyPatterns: [{ contains: 'two.example' }] });
		expect(found).toMatchObject({ method: 'POST', url: ENDPOINTS.createWebhook.path, absoluteUrl: webhooksUrl, body: JSON.stringify({ url: 'https://two.example', event_types: ['job_created'] }) });
		expect(() => mock.requests.find({ method: 'GET', cookies: {} })).toThrow(MappingError);
	});
});

describe('what is not served is refused, naming the field', () => {
	const refusals: [string, Record<string, unknown>, RegExp][] = [
		['an unknown mapping field', { request: {}, reponse: {} }, /^reponse: is no mapping field/],
		['webhooks (postServeActions)', { request: {}, postServeActions: [] }, /^postServeActions: WireMock's "postServeActions"/],
		['persistent: true', { request: {}, persistent: true }, /^persistent: stubs live in memory only/],
		['an id that is no UUID', { id: 'abc', request: {} }, /^id: must be a UUID/],
		['no request', { response: {} }, /^request: is required/],
		['cookies', { request: { cookies: {} } }, /^request\.cookies: WireMock's "cookies"/],
		['urlPathTemplate', { request: { urlPathTemplate: '/v2/jobs/{id}' } }, /^request\.urlPathTemplate: WireMock's/],
		['two URL rules', { request: { url: '/a', urlPath: '/a' } }, /^request: give one of url, urlPath, urlPathPattern, urlPattern, not url and urlPath/],
		['a URL without /', { request: { urlPath: 'v2/jobs' } }, /^request\.urlPath: must start with "\/"/],
		['a stub on the admin API', { request: { urlPath: '/__admin/mappings' } }, /^request\.urlPath: the mock's own routes/],
		['method TRACE', { request: { method: 'TRACE' } }, /^request\.method: must be one of GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS or ANY/],
		['a bad regular expression', { request: { urlPathPattern: '/v2/(' } }, /^request\.urlPathPattern: "\/v2\/\(": not a regular expression RE2's syntax reads \(missing closing \)/],
		['a back-reference (Java has it, linear-time matching cannot)', { request: { bodyPatterns: [{ matches: '(a)\\1' }] } }, /^request\.bodyPatterns\[0\]\.matches: "\(a\)\\\\1": back-reference \\1 is not served/],
		['equalToXml', { request: { bodyPatterns: [{ equalToXml: '<a/>' }] } }, /^request\.bodyPatterns\[0\]\.equalToXml: WireMock's "equalToXml" is not served/],
		['and/or', { request: { headers: { A: { and: [] } } } }, /^request\.headers\.A\.and: WireMock's "and" is not served/],
		['two operators in one pattern', { request: { headers: { A: { equalTo: 'a', contains: 'b' } } } }, /^request\.headers\.A: needs exactly one of/],
		['a modifier of another operator', { request: { headers: { A: { contains: 'a', caseInsensitive: true } } } }, /^request\.headers\.A\.caseInsensitive: does not go with contains/],
		['absent in a body pattern', { request: { bodyPatterns: [{ absent: true }] } }, /^request\.bodyPatterns\[0\]\.absent: serves query parameters and headers only/],
		['a JSONPath slice', { request: { bodyPatterns: [{ matchesJsonPath: '$.a[0:2]' }] } }, /^request\.bodyPatterns\[0\]\.matchesJsonPath: JSONPath "\$\.a\[0:2\]": slices are not served/],
		['a JSONPath function', { request: { bodyPatterns: [{ matchesJsonPath: '$.a.length()' }] } }, /functions such as length\(\) are not served/],
		['json-unit placeholders', { request: { bodyPatterns: [{ equalToJson: '{"a": "${json-unit.any-string}"}' }] } }, /json-unit placeholders/],
		['response templating', { request: {}, response: { transformers: ['response-template'] } }, /^response\.transformers: WireMock's "transformers"/],
		['a files folder', { request: {}, response: { bodyFileName: 'a.json' } }, /^response\.bodyFileName: WireMock's "bodyFileName": the mock has no files folder/],
		['a random delay', { request: {}, response: { delayDistribution: { type: 'uniform', lower: 1, upper: 2 } } }, /^response\.delayDistribution: WireMock's/],
		['a status message', { request: {}, response: { statusMessage: 'OK' } }, /^response\.statusMessage: WireMock's/],
		['a delay over a minute', { request: {}, response: { fixedDelayMilliseconds: 60_001 } }, /^response\.fixedDelayMilliseconds: must be a whole number of milliseconds, 0 to 60000/],
		['status 100', { request: {}, response: { status: 100 } }, /^response\.status: must be a whole number from 200 to 599/],
		['a body on 204', { request: {}, response: { status: 204, body: 'x' } }, /^response\.status: 204 answers have no body/],
		['two bodies', { request: {}, response: { body: 'x', jsonBody: {} } }, /^response: give one of body, jsonBody, base64Body, not body and jsonBody/],
		['a fault with a body', { request: {}, response: { fault: 'EMPTY_RESPONSE', body: 'x' } }, /^response\.body: a fault sends no status, headers or body/],
		['an unknown fault', { request: {}, response: { fault: 'SLOW' } }, /^response\.fault: must be one of CONNECTION_RESET_BY_PEER/],
		['a scenario state without a scenario', { request: {}, newScenarioState: 'x' }, /^newScenarioState: needs scenarioName/],
		['priority 0', { request: {}, priority: 0 }, /^priority: must be a whole number, 1 or more/],
	];
	it.each(refusals)('%s', (_name, mapping, message) => {
		let thrown: unknown;
		try {
			mock.stubs.add(mapping);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(MappingError);
		expect((thrown as Error).message).toMatch(message);
		expect(mock.stubs.list()).toEqual([]);
	});
});

describe("MSW's own server.use() beside the mock's handlers", () => {
	it('a handler the test adds with server.use() answers first; resetHandlers() brings the mock back', async () => {
		server.use(http.get('*/v2/collections', () => HttpResponse.json({ data: [], from: 'server.use' })));
		expect(await (await get('/collections')).json()).toEqual({ data: [], from: 'server.use' });
		server.resetHandlers(...mock.handlers);
		const collections = (await (await get('/collections')).json()) as { data: unknown[] };
		expect(collections.data.length).toBeGreaterThan(0);
	});
});
