// Which pages may call the mock (src/http/cors.mts): the loopback origins by default, a list, or `*`; a page not allowed is
// refused with 403 before any handler runs, on every route family (service, app routes, control, WireMock admin, the
// page), simple and preflighted, and nothing changes; requests without Origin are served. The CORS headers of the
// answers (preflight, 405/404/413), in-process and over real HTTP. The origin decision under fast-check.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHOICES, LIMITS, MOCK_CONTROL_PATHS, apiErrorSchema } from '../src/base/contract.mts';
import { Cors, isLoopbackOrigin, parseCorsOrigin } from '../src/http/cors.mts';
import { PAGE_PATH } from '../src/page/page.mts';
import { createMockService } from '../src/service.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { API_URL, APP_URL, DEMO_TOKEN, SMALL, useMock } from './harness.mts';
import { rawRequest, type RawAnswer } from './raw-http.mts';

const EXPOSED = Object.values(CHOICES.rateLimitHeaderNames);
const APP = 'http://localhost:3000';
const OTHER_APP = 'https://app.example.com';
const EVIL = 'https://evil.example';

const preflight = (url: string, origin: string | null, requestHeaders?: string, method = 'GET') =>
	fetch(url, {
		method: 'OPTIONS',
		headers: {
			...(origin === null ? {} : { origin }),
			'access-control-request-method': method,
			...(requestHeaders === undefined ? {} : { 'access-control-request-headers': requestHeaders }),
		},
	});
const get = (url: string, origin: string | null, token: string | null = DEMO_TOKEN) =>
	fetch(url, { headers: { ...(origin === null ? {} : { origin }), ...(token === null ? {} : { authorization: `Bearer ${token}` }) } });
const errorOf = (body: string) => apiErrorSchema.strict().parse(JSON.parse(body));

function expectExposed(headers: Headers): void {
	const exposed = (headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim());
	expect(exposed).toEqual(EXPOSED);
}

describe('the loopback origins (fast-check)', () => {
	// The oracle, written apart from isLoopbackOrigin's pattern: what a browser serializes as the origin of a page
	// on one of the three loopback names, over http or https.
	const trulyLoopback = (origin: string): boolean => {
		let url: URL;
		try {
			url = new URL(origin);
		} catch {
			return false;
		}
		return url.origin === origin && ['http:', 'https:'].includes(url.protocol) && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
	};
	const scheme = fc.constantFrom('http', 'https', 'HTTP', 'ftp', 'ws', 'file', '');
	const host = fc.oneof(
		fc.constantFrom('localhost', '127.0.0.1', '[::1]', 'LOCALHOST', '127.0.0.2', '127.1', '0x7f.1', '2130706433', '[::ffff:127.0.0.1]', '[0:0:0:0:0:0:0:1]', '0.0.0.0', 'localhost.', 'app.localhost'),
		fc.constantFrom('127.0.0.1.evil.com', 'localhost.evil.com', 'evil.com', 'evil-localhost', '127.0.0.1%2eevil.com', 'evil.127.0.0.1'),
		// userinfo and other tricks that put a loopback name where a careless parser reads a host
		fc.constantFrom('localhost@evil.com', 'evil.com@localhost', '127.0.0.1:80@evil.com', 'evil.com#@127.0.0.1', 'evil.com\\@127.0.0.1', 'localhost/evil', 'localhost?x', 'localhost\t', ' localhost'),
		fc.domain(),
		fc.ipV4(),
	);
	const port = fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 70_000 }).map((n) => `:${n}`), fc.constantFrom(':', ':080', ':3000/', ':3000/path', ':+1', ':443', ':80'));
	// Near misses of the real thing, so that both verdicts come often.
	const loopbackLike = fc.tuple(fc.constantFrom('http', 'https'), fc.constantFrom('localhost', '127.0.0.1', '[::1]'), fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 70_000 }).map((n) => `:${n}`)));
	const origin = fc.oneof(
		loopbackLike.map(([s, h, p]) => `${s}://${h}${p}`),
		fc.tuple(scheme, host, port).map(([s, h, p]) => `${s}://${h}${p}`),
		fc.constantFrom('null', '', '*', 'localhost:3000', '//localhost:3000', 'http:/localhost:3000', 'http://localhost:3000, http://evil.com'),
		fc.string(),
	);

	it('allows exactly what a browser sends for a page on http(s)://localhost, 127.0.0.1 or [::1], any port (numRuns 20,000, seed 36)', () => {
		let allowed = 0;
		fc.assert(
			fc.property(origin, (o) => {
				const verdict = isLoopbackOrigin(o);
				expect(verdict, o).toBe(trulyLoopback(o));
				if (verdict) allowed++;
				// The policy answers the same for any path but the page's own origin.
				expect(new Cors('loopback').allows(o, new URL('http://127.0.0.1:4010/v2/collections')), o).toBe(verdict || o === 'http://127.0.0.1:4010');
			}),
			{ numRuns: 20_000, seed: 36 },
		);
		// Both verdicts were met, many times: the generator reaches the loopback origins too.
		expect(allowed).toBeGreaterThan(1000);
	});

	it.each([
		['http://localhost', true], ['https://localhost', true], ['http://localhost:1', true], ['http://127.0.0.1:65535', true], ['https://[::1]:8443', true],
		['http://127.0.0.2:3000', false], ['http://app.localhost:3000', false], ['http://localhost:80', false], ['https://localhost:443', false],
		['http://localhost:65536', false], ['http://localhost:0', true], ['http://127.0.0.1.evil.com', false], ['http://localhost.evil.com:3000', false],
		['http://localhost@evil.com', false], ['null', false], ['HTTP://LOCALHOST:3000', false], ['http://[::ffff:127.0.0.1]', false],
	])('%s: %s', (o, verdict) => {
		expect(isLoopbackOrigin(o)).toBe(verdict);
	});
});

describe('--cors-origin values', () => {
	it('reads loopback, *, a list, and loopback in a list', () => {
		expect(parseCorsOrigin('loopback')).toEqual({ loopback: true, listed: [] });
		expect(parseCorsOrigin(' * ')).toBe('*');
		expect(parseCorsOrigin(`${OTHER_APP}, http://127.0.0.2:8080`)).toEqual({ loopback: false, listed: [OTHER_APP, 'http://127.0.0.2:8080'] });
		expect(parseCorsOrigin(`loopback,${OTHER_APP}`)).toEqual({ loopback: true, listed: [OTHER_APP] });
	});

	it.each(['', 'localhost:3000', 'http://localhost:3000/', 'http://localhost:3000/app', 'ftp://files.example.com', `${APP},`, `${APP} ${OTHER_APP}`, 'Loopback', '*,loopback'])('refuses %j, naming it', async (bad) => {
		await expect(createMockService({ ...SMALL, corsOrigin: bad })).rejects.toThrow(/CORS origin must be "loopback", "\*" or origins separated by commas/);
	});
});

describe('in-process, the default (loopback origins)', () => {
	const mock = useMock();

	it('answers a loopback page\'s preflight 204 with its origin, the path\'s methods, the asked-for headers and a max age, on service and control routes', async () => {
		const job = await preflight(`${API_URL}/jobs/job_0000001`, APP, 'authorization,x-trace-id');
		expect(job.status).toBe(204);
		expect(Object.fromEntries(job.headers)).toMatchObject({
			allow: 'GET, HEAD, OPTIONS',
			'access-control-allow-origin': APP,
			'access-control-allow-methods': 'GET, HEAD, OPTIONS',
			'access-control-allow-headers': 'authorization,x-trace-id',
			'access-control-max-age': String(LIMITS.corsMaxAgeSeconds),
			vary: 'Origin',
		});
		const faults = await preflight(`${APP_URL}${MOCK_CONTROL_PATHS.faults}`, 'http://[::1]:5173', undefined, 'PUT');
		expect([faults.status, faults.headers.get('allow'), faults.headers.get('access-control-allow-origin')]).toEqual([204, 'DELETE, GET, HEAD, OPTIONS, PUT', 'http://[::1]:5173']);
		// A preflight is no call: it spends no budget and is not in the journal.
		expect(mock.service.requests().data).toEqual([]);
	});

	it('puts Allow-Origin, Vary and Expose-Headers on a loopback page\'s answers, success and error; none but Vary without Origin', async () => {
		for (const response of [await get(`${API_URL}/collections`, APP), await get(`${API_URL}/collections`, APP, null)]) {
			expect([response.headers.get('access-control-allow-origin'), response.headers.get('vary')]).toEqual([APP, 'Origin']);
			expectExposed(response.headers);
		}
		const bare = await get(`${API_URL}/collections`, null);
		expect([bare.status, bare.headers.get('access-control-allow-origin'), bare.headers.get('vary')]).toEqual([200, null, 'Origin']);
	});

	it('refuses another origin with 403 before any route runs: no answer, no journal entry, no webhook setting', async () => {
		for (const origin of [EVIL, 'http://127.0.0.2:3000', 'http://localhost.evil.com:3000', 'null']) {
			const read = await get(`${API_URL}/collections`, origin);
			expect([read.status, read.headers.get('access-control-allow-origin')]).toEqual([403, null]);
			expect((await read.json()) as unknown).toMatchObject({ status: 403, message: expect.stringContaining(`A page on ${JSON.stringify(origin)} may not call this path`) });
			const post = await fetch(`${APP_URL}/api/webhooks`, {
				method: 'POST',
				headers: { origin, 'content-type': 'text/plain', authorization: `Bearer ${DEMO_TOKEN}` },
				body: JSON.stringify({ url: 'https://attacker.example/hook', event_types: ['signal'] }),
			});
			expect(post.status).toBe(403);
			expect((await preflight(`${APP_URL}/api/webhooks`, origin, 'authorization,content-type', 'POST')).status).toBe(403);
		}
		expect(mock.service.requests().data).toEqual([]);
		expect(mock.service.webhooks.settings.list('acc_demo')).toEqual([]);
	});

	it('serves the page\'s own origin (same origin as the URL), and leaves alone a URL the mock does not serve', async () => {
		expect((await get(`${API_URL}/collections`, APP_URL)).status).toBe(200);
		// msw hands the mock's handler every request; one for a path the mock has no route or stub for is not its to refuse.
		const unrelated = await fetch(`${APP_URL}/elsewhere`, { headers: { origin: EVIL } }).catch((error: unknown) => error);
		expect(unrelated).toBeInstanceOf(Error);
	});
});

describe('in-process, a list of origins', () => {
	useMock({ ...SMALL, corsOrigin: `${APP}, ${OTHER_APP}` });

	it('answers each listed origin with itself and Vary: Origin; refuses another, a loopback one not listed included (403, no CORS headers)', async () => {
		for (const origin of [APP, OTHER_APP]) {
			const answer = await get(`${API_URL}/collections`, origin);
			expect([answer.status, answer.headers.get('access-control-allow-origin'), answer.headers.get('vary')]).toEqual([200, origin, 'Origin']);
			expectExposed(answer.headers);
			expect((await preflight(`${API_URL}/collections`, origin)).headers.get('access-control-allow-origin')).toBe(origin);
		}
		for (const origin of ['http://localhost:3001', 'null']) {
			const answer = await get(`${API_URL}/collections`, origin);
			expect([answer.status, answer.headers.get('access-control-allow-origin'), answer.headers.get('access-control-expose-headers')]).toEqual([403, null, null]);
			const refused = await preflight(`${API_URL}/collections`, origin);
			expect([refused.status, refused.headers.get('access-control-allow-origin'), refused.headers.get('access-control-allow-methods')]).toEqual([403, null, null]);
		}
		expect((await get(`${API_URL}/collections`, null)).status).toBe(200);
	});
});

describe('in-process, `*` (the opt-in)', () => {
	useMock({ ...SMALL, corsOrigin: '*' });

	it('lets any page call the service (Allow-Origin *), but no page but the mock\'s own the control routes and the admin API', async () => {
		const api = await get(`${API_URL}/collections`, EVIL);
		expect([api.status, api.headers.get('access-control-allow-origin'), api.headers.get('vary')]).toEqual([200, '*', null]);
		expectExposed(api.headers);
		for (const path of [MOCK_CONTROL_PATHS.accounts, '/__admin/mappings']) {
			for (const origin of [EVIL, APP]) {
				const control = await get(`${APP_URL}${path}`, origin);
				expect([control.status, control.headers.get('access-control-allow-origin')], `${path} ${origin}`).toEqual([403, null]);
				expect(((await control.json()) as { message: string }).message).toMatch(/under --cors-origin \* the control routes serve only the mock's own page/);
			}
			const own = await get(`${APP_URL}${path}`, APP_URL);
			expect([own.status, own.headers.get('access-control-allow-origin')]).toEqual([200, null]);
			expect((await get(`${APP_URL}${path}`, null)).status).toBe(200);
		}
	});
});

describe('over real HTTP, every route family', () => {
	let server: RunningMockServer;
	let star: RunningMockServer;
	let port: number;
	// No test here runs a cycle: nothing is sent there.
	const RECEIVER = 'https://receiver.example/hook';
	beforeAll(async () => {
		[server, star] = await Promise.all([startMockServer({ ...SMALL, port: 0 }), startMockServer({ ...SMALL, port: 0, corsOrigin: '*' })]);
		port = Number(new URL(server.appUrl).port);
	});
	afterAll(async () => {
		await Promise.all([server?.close(), star?.close()]);
	});
	const send = (line: string, headers: Record<string, string> = {}, body = '', to = server): Promise<RawAnswer> => {
		const url = new URL(to.appUrl);
		const all = { host: url.host, connection: 'close', ...headers, ...(body === '' ? {} : { 'content-length': String(Buffer.byteLength(body)) }) };
		return rawRequest(Number(url.port), `${line}\r\n${Object.entries(all).map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`, body);
	};
	/** What a page could change or read: webhook settings, subscribers, faults, stubs, the clock, the journal, the deliveries. */
	const state = async (of = server) => {
		const control = async (path: string) => (await fetch(`${of.appUrl}${path}`)).json() as Promise<unknown>;
		return {
			webhooks: of.service.webhooks.settings.list('acc_demo'),
			subscribers: await control('/__mock/accounts/acc_demo/subscribers'),
			faults: await control(MOCK_CONTROL_PATHS.faults),
			stubs: await control('/__admin/mappings'),
			clock: ((await control(MOCK_CONTROL_PATHS.clock)) as { frozen: unknown }).frozen,
			journal: of.service.requests().data.length,
			deliveries: await control(MOCK_CONTROL_PATHS.deliveries),
		};
	};
	const WEBHOOK = JSON.stringify({ url: RECEIVER, event_types: ['signal'] });
	const UPLOAD = JSON.stringify({ email_addresses: 'victim@example.com', access_token: DEMO_TOKEN });
	const FAULT = JSON.stringify({ faults: [{ path: '/v2/jobs', method: 'GET', status: 503 }] });
	const STUB = JSON.stringify({ request: { method: 'GET', urlPath: '/v2/jobs/job_stub' }, response: { status: 200, jsonBody: {} } });
	/** Requests a page can send, each to a route family: [method, path, headers, body]. */
	const CALLS: [string, string, Record<string, string>, string][] = [
		['POST', MOCK_CONTROL_PATHS.reset, { 'content-type': 'application/json' }, ''],
		['GET', '/v2/collections', { authorization: `Bearer ${DEMO_TOKEN}` }, ''],
		['GET', '/openapi.json', {}, ''],
		['POST', '/api/webhooks', { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' }, WEBHOOK],
		['POST', '/api/webhooks', { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'text/plain' }, WEBHOOK],
		['POST', '/api/subscribers/upload', { 'content-type': 'text/plain;charset=UTF-8' }, UPLOAD],
		['POST', '/api/subscribers/upload', { 'content-type': 'application/x-www-form-urlencoded' }, UPLOAD],
		['GET', MOCK_CONTROL_PATHS.accounts, {}, ''],
		['PUT', MOCK_CONTROL_PATHS.faults, { 'content-type': 'application/json' }, FAULT],
		['PUT', MOCK_CONTROL_PATHS.faults, { 'x-mock-control': '1', 'content-type': 'application/json' }, FAULT],
		['PUT', MOCK_CONTROL_PATHS.clock, { 'content-type': 'application/json' }, '{}'],
		['POST', MOCK_CONTROL_PATHS.process, { 'content-type': 'text/plain' }, '{}'],
		['GET', '/__admin/mappings', {}, ''],
		['POST', '/__admin/mappings', { 'content-type': 'application/json' }, STUB],
		['GET', PAGE_PATH, {}, ''],
		['PATCH', '/v2/collections', {}, ''],
		['GET', '/nothing/here', {}, ''],
	];

	/** Served, or refused by the control routes' own rule (a text/plain POST to /__mock/process), not by the origin gate. */
	const expectNoOriginRefusal = (answer: RawAnswer, what: string) => {
		if (answer.status === 403) expect(errorOf(answer.body).message, what).toMatch(/need "Content-Type: application\/json" or an X-Mock-Control header/);
		else expect(answer.status, what).toBeLessThan(500);
	};

	it.each([EVIL, 'http://127.0.0.2:3000', 'http://localhost.evil.com', 'null', `${APP}, ${EVIL}`])('refuses each call from a page on %s with 403 JSON and no CORS headers, and nothing changes', async (origin) => {
		await server.service.reset();
		// Something to lose: a webhook setting (made without Origin, as n8n makes it).
		expect((await send('POST /api/webhooks HTTP/1.1', { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' }, JSON.stringify({ url: `${RECEIVER}/${origin.length}`, event_types: ['job_created'] }))).status).toBe(201);
		const before = await state();
		expect(before.webhooks).toHaveLength(1);
		for (const [method, path, headers, body] of CALLS) {
			const tries: Record<string, string>[] = [{ ...headers, origin }, { origin, 'access-control-request-method': method, 'access-control-request-headers': Object.keys(headers).join(',') }];
			for (const asked of tries) {
				const preflighted = 'access-control-request-method' in asked;
				const answer = await send(`${preflighted ? 'OPTIONS' : method} ${path} HTTP/1.1`, asked, preflighted ? '' : body);
				const what = `${preflighted ? 'preflight of ' : ''}${method} ${path}`;
				expect(answer.status, what).toBe(403);
				expect(errorOf(answer.body).message, what).toBe(`A page on ${JSON.stringify(origin)} may not call this path: the mock serves pages on http(s)://localhost, 127.0.0.1 and [::1] (any port) and its own page (--cors-origin)`);
				expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-')), what).toEqual([]);
			}
		}
		expect(await state()).toEqual(before);
	});

	it('serves the same calls from a loopback page, with its origin in Allow-Origin (they do change the mock)', async () => {
		await server.service.reset();
		for (const [method, path, headers, body] of CALLS) {
			const answer = await send(`${method} ${path} HTTP/1.1`, { ...headers, origin: 'http://127.0.0.1:5173' }, body);
			expectNoOriginRefusal(answer, `${method} ${path}`);
			if (path !== PAGE_PATH) expect([answer.headers['access-control-allow-origin'], answer.headers.vary], `${method} ${path}`).toEqual(['http://127.0.0.1:5173', 'Origin']);
			const check = await send(`OPTIONS ${path} HTTP/1.1`, { origin: 'http://localhost:8080', 'access-control-request-method': method });
			expect(check.status, `preflight of ${method} ${path}`).toBe(path === '/nothing/here' ? 404 : 204);
		}
		const after = await state();
		// A page allowed to call may change the mock: the webhook, the upload, the fault rule, the stub, the clock went through.
		expect(after.webhooks).toEqual(expect.arrayContaining([expect.objectContaining({ url: RECEIVER })]));
		expect(JSON.stringify(after.subscribers)).toContain('"victim@example.com"');
		expect(after.faults).toMatchObject({ faults: [expect.objectContaining({ path: '/v2/jobs', status: 503 })] });
		expect(after.stubs).toMatchObject({ mappings: [expect.objectContaining({ request: expect.objectContaining({ urlPath: '/v2/jobs/job_stub' }) })] });
		expect(after.clock).toBe(true);
		await server.service.reset();
	});

	it('without Origin (curl, n8n, a test client) every call is served as before; Sec-Fetch-Site: cross-site is refused, but a link to the page opens it', async () => {
		await server.service.reset();
		for (const [method, path, headers, body] of CALLS) {
			expectNoOriginRefusal(await send(`${method} ${path} HTTP/1.1`, headers, body), `${method} ${path}`);
		}
		await server.service.reset();
		const before = await state();
		for (const [method, path, headers, body] of CALLS) {
			const answer = await send(`${method} ${path} HTTP/1.1`, { ...headers, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }, body);
			expect(answer.status, `${method} ${path}`).toBe(403);
			expect(errorOf(answer.body).message).toMatch(/Sec-Fetch-Site: cross-site, no Origin header/);
		}
		expect(await state()).toEqual(before);
		const navigation = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
		expect((await send(`GET ${PAGE_PATH} HTTP/1.1`, navigation)).status).toBe(200);
		expect((await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, navigation)).status).toBe(403);
		expect((await send(`GET ${PAGE_PATH} HTTP/1.1`, { ...navigation, 'sec-fetch-dest': 'iframe' })).status).toBe(403);
		for (const site of ['same-origin', 'same-site', 'none']) expect((await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { 'sec-fetch-site': site })).status).toBe(200);
	});

	it('serves a page on the mock\'s own origin, whatever address it is reached at; a page re-pointed at it by DNS (rebinding) is refused by the Host check', async () => {
		const own = await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { host: `10.1.2.3:${port}`, origin: `http://10.1.2.3:${port}` });
		expect([own.status, own.headers['access-control-allow-origin']]).toEqual([200, `http://10.1.2.3:${port}`]);
		expect((await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { host: `10.1.2.3:${port}`, origin: `http://10.1.2.3:${port + 1}` })).status).toBe(403);
		expect((await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { host: `10.1.2.3:${port}`, origin: `https://10.1.2.3:${port}` })).status).toBe(403);
		for (const host of [`attacker.example:${port}`, `127.0.0.1.evil.com:${port}`, `localhost.evil.com:${port}`]) {
			const rebound = await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { host, origin: `http://${host}` });
			expect([rebound.status, errorOf(rebound.body).message], host).toEqual([403, expect.stringMatching(/is not this mock's address/)]);
			expect(rebound.body).not.toContain(DEMO_TOKEN);
		}
	});

	it('with `*`: any page reads and drives the service, even with a simple request; the control routes and the admin API only the mock\'s own page', async () => {
		const any = await send('GET /v2/collections HTTP/1.1', { origin: EVIL, authorization: `Bearer ${DEMO_TOKEN}` }, '', star);
		expect([any.status, any.headers['access-control-allow-origin']]).toEqual([200, '*']);
		// The risk `*` takes (README, CORS): a page registers a webhook to an address of its choosing.
		const hook = await send('POST /api/webhooks HTTP/1.1', { origin: EVIL, authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'text/plain' }, WEBHOOK, star);
		expect(hook.status).toBe(201);
		expect(star.service.webhooks.settings.list('acc_demo')).toEqual([expect.objectContaining({ url: RECEIVER })]);
		const before = await state(star);
		for (const [method, path, headers, body] of CALLS.filter(([, path]) => path.startsWith('/__'))) {
			const answer = await send(`${method} ${path} HTTP/1.1`, { ...headers, origin: EVIL }, body, star);
			expect([answer.status, answer.headers['access-control-allow-origin']], `${method} ${path}`).toEqual([403, undefined]);
		}
		expect(await state(star)).toEqual(before);
		const ownUrl = new URL(star.appUrl);
		expect((await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { origin: ownUrl.origin }, '', star)).status).toBe(200);
		await star.service.reset();
	});
});

describe('CORS headers over real HTTP', () => {
	let any: RunningMockServer;
	let listed: RunningMockServer;
	beforeAll(async () => {
		[any, listed] = await Promise.all([startMockServer({ ...SMALL, port: 0, corsOrigin: '*' }), startMockServer({ ...SMALL, port: 0, corsOrigin: APP })]);
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
		const bigControl = await send(listed, 'POST /__mock/process HTTP/1.1', { origin: APP, 'content-length': String(LIMITS.maxRequestBodyBytes + 1) });
		expect([bigControl.status, bigControl.headers['access-control-allow-origin']]).toEqual([413, APP]);
		const answer = await fetch(`${any.apiUrl}/collections`, { headers: { origin: APP, authorization: `Bearer ${DEMO_TOKEN}` } });
		expect(answer.headers.get('access-control-allow-origin')).toBe('*');
		expectExposed(answer.headers);
	});

	it('with a listed origin: echoes it with Vary: Origin; another origin is refused 403 with no CORS headers, before 405 or 413', async () => {
		const mine = await send(listed, 'GET /v2/collections HTTP/1.1', { origin: APP, authorization: `Bearer ${DEMO_TOKEN}` });
		expect([mine.status, mine.headers['access-control-allow-origin'], mine.headers.vary]).toEqual([200, APP, 'Origin']);
		const theirs = await send(listed, 'GET /v2/collections HTTP/1.1', { origin: OTHER_APP, authorization: `Bearer ${DEMO_TOKEN}` });
		expect([theirs.status, theirs.headers['access-control-allow-origin']]).toEqual([403, undefined]);
		const refused = await send(listed, 'PATCH /v2/collections HTTP/1.1', { origin: OTHER_APP });
		expect([refused.status, refused.headers['access-control-allow-origin']]).toEqual([403, undefined]);
		const big = await send(listed, 'POST /api/webhooks HTTP/1.1', { origin: OTHER_APP, 'content-length': String(LIMITS.maxRequestBodyBytes + 1) });
		expect(big.status).toBe(403);
	});
});
