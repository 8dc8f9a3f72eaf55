// Near misses as WireMock has them, the 404 diff on a stub path, unknown /__admin routes, and the warnings of a
// verification pattern on what the journal keeps redacted: the distance itself (pure, and under fast-check against
// the matcher), the three near-miss routes with their bounds (in-process), and over real HTTP what the README
// promises there (WireMock's JSON, wiremock-rest-client's near-miss calls, the text diff, the 404s).
import fc from 'fast-check';
import { getResponse } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WireMockRestClient } from 'wiremock-rest-client';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { createMockService, type MockService } from '../src/service.mts';
import { adminErrorSchema } from '../src/wiremock/admin-error.mts';
import { textValue } from '../src/wiremock/content-patterns.mts';
import { compare, textDistance, WEIGHTS } from '../src/wiremock/distance.mts';
import { MAX_UNMATCHED_NEAR_MISS_CALLS } from '../src/wiremock/journal-query.mts';
import { MAX_NEAR_MISSES, requestView } from '../src/wiremock/near-misses.mts';
import { NOT_SERVED_ROUTES } from '../src/wiremock/not-served-routes.mts';
import { matchesRequest, readRequestPattern } from '../src/wiremock/request-pattern.mts';
import { APP_URL, DEMO_TOKEN, SMALL } from './harness.mts';

const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
/** An admin route's error is WireMock's body (src/wiremock/admin-error.mts); its message is the first error's detail. */
const errorOf = (body: unknown) => ({ message: adminErrorSchema.parse(body).errors[0].detail });
const view = (method: string, url: string, headers: Record<string, string> = {}) => requestView(method, url, (name) => (headers[name] === undefined ? [] : [headers[name]]));
const distanceOf = (pattern: unknown, method: string, url: string, headers: Record<string, string> = {}, body = '') =>
	compare(readRequestPattern(pattern, 'p', { forStub: false }), view(method, url, headers), textValue(body)).distance;

interface NearMissJson {
	request: { method: string; url: string };
	stubMapping?: { id: string; name?: string };
	requestPattern?: unknown;
	matchResult: { distance: number };
}

describe('the distance (distance.mts)', () => {
	it('text distance: the share of the longer text outside the common start and end; 0 only for equal texts', () => {
		expect(textDistance('/v2/jobs', '/v2/jobs', false)).toBe(0);
		expect(textDistance('/v2/jobs', '/v2/jbs', false)).toBe(1 - 7 / 8);
		expect(textDistance('/v2/jobs', '/v2/JOBS', false)).toBe(1 - 4 / 8);
		expect(textDistance('/v2/jobs', '/v2/JOBS', true)).toBe(0);
		// The common end does not overlap the common start.
		expect(textDistance('aa', 'aaa', false)).toBe(1 - 2 / 3);
		expect(textDistance('', 'abc', false)).toBe(1);
		expect(textDistance('abc', 'xyz', false)).toBe(1);
	});

	it('a weighted mean over the fields the pattern names: URL 10, method 3, each parameter, header and body pattern 1', () => {
		expect(WEIGHTS).toEqual({ url: 10, method: 3, query: 1, header: 1, body: 1, scenario: 1 });
		const pattern = { method: 'POST', urlPath: '/todo/items', headers: { 'x-team': { equalTo: 'qa' } }, bodyPatterns: [{ contains: 'milk' }] };
		expect(distanceOf(pattern, 'POST', '/todo/items', { 'x-team': 'qa' }, 'milk')).toBe(0);
		expect(distanceOf(pattern, 'GET', '/todo/items', { 'x-team': 'qa' }, 'milk')).toBe(3 / 15);
		expect(distanceOf(pattern, 'POST', '/todo/items', {}, 'milk')).toBe(1 / 15);
		expect(distanceOf(pattern, 'POST', '/todo/items', { 'x-team': 'qa' }, 'eggs')).toBe(1 / 15);
		// A typo in the path: the text distance, weighted 10 (1 − 10/11 of it missing).
		expect(distanceOf(pattern, 'POST', '/todo/item', { 'x-team': 'qa' }, 'milk')).toBeCloseTo((10 * (1 - 10 / 11)) / 15, 12);
		// equalTo measures the value's text distance too; other patterns are 0 or 1.
		expect(distanceOf({ headers: { 'x-team': { equalTo: 'qa' } } }, 'GET', '/', { 'x-team': 'qb' })).toBe(0.5);
		expect(distanceOf({ headers: { 'x-team': { matches: 'q.' } } }, 'GET', '/', { 'x-team': 'zz' })).toBe(1);
		expect(distanceOf({ urlPathPattern: '/todo/.*' }, 'GET', '/done/1')).toBe(1);
		// Another method and another path: the method's whole weight, the path's text distance (1 − 1/2).
		expect(distanceOf({ method: 'GET', urlPath: '/a' }, 'POST', '/b')).toBe((3 + 10 * 0.5) / 13);
		expect(distanceOf({ method: 'GET', urlPath: '/a' }, 'POST', '/')).toBe(1 - 10 / 2 / 13);
		// A pattern that names nothing matches everything.
		expect(distanceOf({}, 'DELETE', '/x')).toBe(0);
	});

	it('property: the distance is in [0, 1], and 0 exactly when the matcher matches (fast-check, seed 38, 300 runs)', () => {
		const word = fc.constantFrom('a', 'b', 'ab', 'todo', 'items');
		const path = fc.array(word, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`);
		const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE');
		const value = fc.option(word, { nil: undefined });
		const valuePattern = fc.oneof(
			word.map((w) => ({ equalTo: w })),
			word.map((w) => ({ contains: w })),
			word.map((w) => ({ matches: `${w}.*` })),
			fc.constant({ absent: true }),
		);
		fc.assert(
			fc.property(
				fc.record({ method: fc.option(method, { nil: undefined }), urlPath: fc.option(path, { nil: undefined }), header: fc.option(valuePattern, { nil: undefined }), query: fc.option(valuePattern, { nil: undefined }) }),
				method,
				path,
				value,
				value,
				(p, sentMethod, sentPath, headerValue, queryValue) => {
					const input = {
						...(p.method && { method: p.method }),
						...(p.urlPath && { urlPath: p.urlPath }),
						...(p.header && { headers: { 'x-a': p.header } }),
						...(p.query && { queryParameters: { q: p.query } }),
					};
					const pattern = readRequestPattern(input, 'p', { forStub: false });
					const request = view(sentMethod, `${sentPath}${queryValue === undefined ? '' : `?q=${queryValue}`}`, headerValue === undefined ? {} : { 'x-a': headerValue });
					const { distance } = compare(pattern, request, textValue(''));
					expect(distance).toBeGreaterThanOrEqual(0);
					expect(distance).toBeLessThanOrEqual(1);
					expect(distance === 0).toBe(matchesRequest(pattern, request, textValue('')));
				},
			),
			{ seed: 38, numRuns: 300 },
		);
	});
});

describe('the near-miss routes, in-process', () => {
	let mock: MockService;
	beforeAll(async () => {
		mock = await createMockService(SMALL);
	});
	afterAll(() => mock.close());
	beforeEach(async () => {
		await mock.reset();
	});
	const ask = async (path: string, body?: unknown) => {
		const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
		const response = (await getResponse(mock.handlers, new Request(`${APP_URL}${path}`, init)))!;
		return { status: response.status, json: (await response.json()) as { nearMisses: NearMissJson[] } & Record<string, unknown> };
	};
	const stubs = () => {
		mock.stubs.add({ name: 'list', request: { method: 'GET', urlPath: '/todo/items' }, response: { status: 200 } });
		mock.stubs.add({ name: 'add', request: { method: 'POST', urlPath: '/todo/items', bodyPatterns: [{ contains: 'milk' }] }, response: { status: 201 } });
		mock.stubs.add({ name: 'one', request: { method: 'GET', urlPathPattern: '/todo/items/[0-9]+' }, response: { status: 200 } });
		mock.stubs.add({ name: 'far', request: { method: 'DELETE', urlPath: '/elsewhere' }, response: { status: 204 } });
	};

	it('POST /__admin/near-misses/request: the nearest MAX_NEAR_MISSES stubs, nearest first, in WireMock\'s shape', async () => {
		stubs();
		const { status, json } = await ask('/__admin/near-misses/request', { method: 'POST', url: '/todo/items', headers: { 'Content-Type': 'text/plain' }, body: 'eggs' });
		expect(status).toBe(200);
		expect(MAX_NEAR_MISSES).toBe(3);
		expect(json.nearMisses.map((miss) => [miss.stubMapping?.name, miss.matchResult.distance])).toEqual([
			['add', 1 / 14],
			['list', 3 / 13],
			// Another method and path ('/' in common), closer than a path pattern that does not match (1).
			['far', (3 + 10 * (1 - 1 / 11)) / 13],
		]);
		expect(json.nearMisses[0]).toEqual({
			request: expect.objectContaining({ method: 'POST', url: '/todo/items', headers: { 'content-type': 'text/plain' }, body: 'eggs', bodyAsBase64: Buffer.from('eggs').toString('base64') }),
			stubMapping: expect.objectContaining({ name: 'add', id: expect.any(String) }),
			matchResult: { distance: 1 / 14 },
		});
		// Exactly MAX_NEAR_MISSES stubs: all of them; none: none.
		mock.stubs.remove(json.nearMisses[2].stubMapping!.id);
		expect((await ask('/__admin/near-misses/request', { method: 'GET', url: '/todo/items' })).json.nearMisses.map((miss) => miss.stubMapping?.name)).toEqual(['list', 'add', 'one']);
		mock.stubs.reset();
		expect((await ask('/__admin/near-misses/request', { method: 'GET', url: '/todo/items' })).json).toEqual({ nearMisses: [] });
	});

	it('a stub out of its scenario state is a near miss, not a match', async () => {
		mock.stubs.add({ scenarioName: 'todo', requiredScenarioState: 'one item', request: { method: 'GET', urlPath: '/todo/items' }, response: { status: 200 } });
		const { json } = await ask('/__admin/near-misses/request', { method: 'GET', url: '/todo/items' });
		expect(json.nearMisses.map((miss) => miss.matchResult.distance)).toEqual([1 / 14]);
	});

	it('a logged request it cannot read is a 400 naming the field', async () => {
		const cases: [unknown, RegExp][] = [
			[[], /logged request: must be an object/],
			[{ url: '/x' }, /logged request\.method: is required/],
			[{ method: 'GET' }, /logged request\.url: is required/],
			[{ method: 'GET', url: 'x' }, /logged request\.url: must be the path and query/],
			[{ method: 'GET', url: '/x', headers: { a: 1 } }, /logged request\.headers\.a: must be a text/],
			[{ method: 'GET', url: '/x', verb: 'GET' }, /logged request\.verb: is no field of WireMock's logged request/],
			[{ method: 'GET', absoluteUrl: 'nope' }, /logged request\.absoluteUrl: must be an absolute URL/],
		];
		for (const [body, message] of cases) {
			const { status, json } = await ask('/__admin/near-misses/request', body);
			expect(status, JSON.stringify(body)).toBe(400);
			expect(errorOf(json).message).toMatch(message);
		}
		// A logged request as GET /__admin/requests shows one is read as it is (its other fields taken and not needed).
		const { status } = await ask('/__admin/near-misses/request', { id: 'x', method: 'GET', absoluteUrl: 'http://mock.test/a?b=1', cookies: {}, browserProxyRequest: false, loggedDate: 1, loggedDateString: 'x', queryParams: {} });
		expect(status).toBe(200);
	});

	it('POST /__admin/near-misses/request-pattern: the journal\'s calls nearest to the pattern, with the pattern as given', async () => {
		for (const [path, headers] of [['/v2/collections', auth], ['/v2/jobs?search=x', auth], ['/v2/collections', {}]] as const) await getResponse(mock.handlers, new Request(`${APP_URL}${path}`, { headers }));
		const pattern = { method: 'GET', urlPath: '/v2/collections', headers: { authorization: { matches: 'Bearer .*' } } };
		const { json } = await ask('/__admin/near-misses/request-pattern', pattern);
		expect(json.nearMisses.map((miss) => [miss.request.url, miss.matchResult.distance])).toEqual([
			['/v2/collections', 0],
			// Without the header: its weight, 1 of 14.
			['/v2/collections', 1 / 14],
			// Another path: '/v2/' and the final 's' in common.
			['/v2/jobs?search=x', (10 * (1 - 5 / 15)) / 14],
		]);
		expect(json.nearMisses[0].requestPattern).toEqual(pattern);
		expect(json.nearMisses[0]).not.toHaveProperty('stubMapping');
		expect((await ask('/__admin/near-misses/request-pattern', { method: 'get' })).status).toBe(400);
	});

	it(`GET /__admin/requests/unmatched/near-misses: the nearest stubs of each of the newest ${MAX_UNMATCHED_NEAR_MISS_CALLS} unmatched calls (at the bound and past it)`, async () => {
		mock.stubs.add({ request: { method: 'GET', urlPath: '/v2/collections', queryParameters: { n: { equalTo: 'none' } } }, response: { status: 299 } });
		const call = (n: number) => getResponse(mock.handlers, new Request(`${APP_URL}/v2/collections?n=${n}`, { headers: auth }));
		for (let n = 1; n <= MAX_UNMATCHED_NEAR_MISS_CALLS; n++) await call(n);
		const atBound = (await ask('/__admin/requests/unmatched/near-misses')).json.nearMisses;
		expect(atBound.map((miss) => miss.request.url)).toEqual(Array.from({ length: MAX_UNMATCHED_NEAR_MISS_CALLS }, (_, i) => `/v2/collections?n=${i + 1}`));
		await call(MAX_UNMATCHED_NEAR_MISS_CALLS + 1);
		const past = (await ask('/__admin/requests/unmatched/near-misses')).json.nearMisses;
		expect(past).toHaveLength(MAX_UNMATCHED_NEAR_MISS_CALLS);
		expect([past[0].request.url, past.at(-1)!.request.url]).toEqual(['/v2/collections?n=2', `/v2/collections?n=${MAX_UNMATCHED_NEAR_MISS_CALLS + 1}`]);
		expect(past[0].matchResult.distance).toBe(1 / 14);
	});

	it('find, count and remove on a redacted header or the body\'s access_token say so in "warnings"; otherwise no "warnings"', async () => {
		await getResponse(mock.handlers, new Request(`${APP_URL}/v2/collections`, { headers: auth }));
		const count = await ask('/__admin/requests/count', { headers: { Authorization: { equalTo: `Bearer ${DEMO_TOKEN}` } } });
		expect(count.json).toEqual({ count: 0, requestJournalDisabled: false, warnings: [expect.stringMatching(/^authorization is journaled redacted .*"Bearer \[redacted\]"/)] });
		const find = await ask('/__admin/requests/find', { headers: { 'proxy-authorization': { contains: 'x' } }, bodyPatterns: [{ matchesJsonPath: '$.access_token' }] });
		expect(find.json.warnings).toEqual([expect.stringMatching(/^proxy-authorization is journaled redacted/), expect.stringMatching(/access_token is journaled as "\[redacted\]"/)]);
		expect((await ask('/__admin/requests/remove', { headers: { authorization: { equalTo: 'x' } } })).json.warnings).toHaveLength(1);
		expect((await ask('/__admin/requests/count', { headers: { authorization: { absent: true } } })).json).toEqual({ count: 0, requestJournalDisabled: false });
		expect((await ask('/__admin/requests/count', { urlPath: '/v2/collections' })).json).toEqual({ count: 1, requestJournalDisabled: false });
		// The in-process API answers as before.
		expect(mock.requests.count({ headers: { authorization: { matches: 'Bearer .*' } } })).toBe(1);
	});
});

describe('over real HTTP', () => {
	let server: RunningMockServer;
	let rest: WireMockRestClient;
	beforeAll(async () => {
		server = await startMockServer({ ...SMALL, port: 0 });
		rest = new WireMockRestClient(server.appUrl, { logLevel: 'silent', continueOnFailure: true });
	});
	afterAll(() => server?.close());
	beforeEach(async () => {
		await rest.global.resetAll();
	});

	it('wiremock-rest-client\'s near-miss calls: by request, by request pattern, for the unmatched calls', async () => {
		await rest.mappings.createMapping({ name: 'add', request: { method: 'POST', urlPath: '/todo/items' }, response: { status: 201 } });
		expect((await fetch(`${server.appUrl}/todo/item`, { method: 'POST', body: 'milk' })).status).toBe(404);
		const unmatched = (await rest.requests.getUnmatchedNearMisses()) as unknown as { nearMisses: NearMissJson[] };
		expect(unmatched.nearMisses.map((miss) => [miss.request.method, miss.request.url, miss.stubMapping?.name, miss.matchResult.distance])).toEqual([['POST', '/todo/item', 'add', (10 * (1 - 10 / 11)) / 13]]);
		const byRequest = (await rest.requests.getNearMissesByRequest({ method: 'POST', url: '/todo/item' } as never)) as { nearMisses: NearMissJson[] };
		expect(byRequest.nearMisses.map((miss) => miss.stubMapping?.name)).toEqual(['add']);
		const byPattern = (await rest.requests.getNearMissesByRequestPattern({ method: 'POST', urlPath: '/todo/items' } as never)) as { nearMisses: NearMissJson[] };
		expect(byPattern.nearMisses.map((miss) => [miss.request.url, miss.requestPattern])).toEqual([['/todo/item', { method: 'POST', urlPath: '/todo/items' }]]);
		// WireMock's own paths answer the same.
		const wiremockPath = await fetch(`${server.appUrl}/__admin/near-misses/request`, { method: 'POST', body: JSON.stringify({ method: 'POST', url: '/todo/item' }) });
		expect(await wiremockPath.json()).toEqual(byRequest);
	});

	it('a request on a stub path that no stub matched: 404 with the diff against the closest stub, in text', async () => {
		await rest.mappings.createMapping({
			name: 'add milk',
			request: { method: 'POST', urlPath: '/todo/items', queryParameters: { list: { equalTo: 'home' } }, headers: { 'X-Team': { equalTo: 'qa' } }, bodyPatterns: [{ contains: 'milk' }] },
			response: { status: 201 },
		});
		const answer = await fetch(`${server.appUrl}/todo/items?list=work`, { method: 'POST', headers: { 'x-team': 'qa' }, body: 'eggs' });
		expect([answer.status, answer.headers.get('content-type')]).toEqual([404, 'text/plain; charset=utf-8']);
		const col = (text: string) => text.padEnd(58);
		expect(await answer.text()).toBe(
			[
				'',
				`${' '.repeat(48)}Request was not matched`,
				`${' '.repeat(48)}${'='.repeat(23)}`,
				'',
				'-'.repeat(119),
				`${col('| Closest stub')} | ${'Request'.padEnd(56)} |`,
				'-'.repeat(119),
				`${col('')} |`,
				`${col('add milk')} |`,
				`${col('')} |`,
				`${col('POST')} | POST`,
				`${col('/todo/items')} | /todo/items`,
				`${col('')} |`,
				`${col('list: [equalTo] home')} | ${col('list: work')} <<<<< Query does not match`,
				`${col('x-team: [equalTo] qa')} | x-team: qa`,
				`${col('body [contains] milk')} | ${col('eggs')} <<<<< Body does not match`,
				`${col('')} |`,
				'-'.repeat(119),
				'',
				// The query (home / work: nothing in common) and the body miss, 2 of 16.
				`The closest of 1 stub (distance ${2 / 16}: 0 matches, 1 matches in nothing); POST /__admin/near-misses/request lists the nearest 3.`,
				'',
			].join('\n'),
		);
		// A method no stub can name (PATCH) on that path: the diff too; the journal has both, with their methods.
		const patch = await fetch(`${server.appUrl}/todo/items`, { method: 'PATCH' });
		expect(patch.status).toBe(404);
		expect(await patch.text()).toMatch(/^POST +\| PATCH +<<<<< HTTP method does not match$/m);
		const unmatched = (await rest.requests.getUnmatchedRequests()) as { requests: { method: string }[] };
		expect(unmatched.requests.map((request) => request.method)).toEqual(['POST', 'PATCH']);
	});

	it('an /__admin route WireMock has and the mock does not serve says so; any other is unknown (and what its path serves)', async () => {
		for (const { method, path } of NOT_SERVED_ROUTES.filter((route) => !route.path.includes('**') && route.method !== 'PATCH')) {
			const answer = await fetch(`${server.appUrl}/__admin${path}`, { method });
			expect(answer.status, `${method} ${path}`).toBe(404);
			expect(errorOf(await answer.json()).message, `${method} ${path}`).toMatch(/ is WireMock's, and not served by this mock: /);
		}
		const files = await fetch(`${server.appUrl}/__admin/files/a/b.json`, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } });
		expect(errorOf(await files.json()).message).toMatch(/^PUT \/__admin\/files\/a\/b\.json is WireMock's, and not served by this mock: stubs live in memory only/);
		const nothing = await fetch(`${server.appUrl}/__admin/nothing`);
		expect(nothing.status).toBe(404);
		expect(errorOf(await nothing.json()).message).toBe('GET /__admin/nothing is no route of WireMock\'s admin API or of this mock (the routes served: the README, "WireMock admin API (stubs and verification)")');
		// A real path with a method it does not have: unknown too, with the methods it has.
		const shutdown = await fetch(`${server.appUrl}/__admin/shutdown`);
		expect(errorOf(await shutdown.json()).message).toMatch(/^GET \/__admin\/shutdown is no route of WireMock's admin API or of this mock \(/);
		// Another method on a route served here: 405 with Allow.
		const put = await fetch(`${server.appUrl}/__admin/requests`, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } });
		expect([put.status, put.headers.get('allow'), errorOf(await put.json()).message]).toEqual([405, 'DELETE, GET, HEAD, OPTIONS', 'PUT is not allowed here; allowed: DELETE, GET, HEAD, OPTIONS']);
	});
});
