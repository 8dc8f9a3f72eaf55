// Local means local (standalone server, real sockets): changing control routes refuse what a page can send cross-site without a preflight; the control routes are not readable by a page on another origin, by default, and only by a listed one; a Host that is neither localhost, an IP literal nor an allowed name is refused (DNS rebinding); only the mock's real paths are served; what node's HTTP parser refuses gets the JSON error shape; a client gone mid-body is no mock bug; the CLI warns for a non-loopback --host and for --cors-origin *.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect } from 'node:net';
import { MOCK_CONTROL_PATHS, apiErrorSchema } from '../src/base/contract.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { runCli, type CliProcess } from './cli-process.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';
import { rawRequest } from './raw-http.mts';

let server: RunningMockServer;
let listed: RunningMockServer;
let port: number;
const PAGE = 'http://localhost:3000';

beforeAll(async () => {
	server = await startMockServer({ ...SMALL, port: 0, allowedHosts: ['mock.test'] });
	listed = await startMockServer({ ...SMALL, port: 0, corsOrigin: PAGE });
	port = Number(new URL(server.appUrl).port);
});
afterAll(async () => {
	await server?.close();
	await listed?.close();
});

const send = (line: string, headers: Record<string, string> = {}, body = '', to = port) => {
	const all = { host: `127.0.0.1:${to}`, connection: 'close', ...headers, ...(body === '' ? {} : { 'content-length': String(Buffer.byteLength(body)) }) };
	return rawRequest(to, `${line}\r\n${Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`, body);
};
const errorOf = (body: string) => apiErrorSchema.strict().parse(JSON.parse(body));

describe('control routes that change the mock', () => {
	it.each([
		['POST', MOCK_CONTROL_PATHS.reset],
		['POST', MOCK_CONTROL_PATHS.process],
		['POST', MOCK_CONTROL_PATHS.events],
		['PUT', MOCK_CONTROL_PATHS.faults],
		['DELETE', MOCK_CONTROL_PATHS.faults],
	])('%s %s refuses the simple requests even an allowed page can send without a preflight (403 JSON), and nothing changes', async (method, path) => {
		const before = (await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.requests}`).then((r) => r.json())) as unknown;
		for (const type of [undefined, 'text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
			// A loopback page passes the origin gate (cors.test.mts); this rule still holds for it.
			const answer = await send(`${method} ${path} HTTP/1.1`, { origin: 'http://localhost:8080', ...(type === undefined ? {} : { 'content-type': type }) }, '{}');
			expect(answer.status, `${type}`).toBe(403);
			expect(errorOf(answer.body).message).toMatch(/Content-Type: application\/json.*X-Mock-Control/);
			// The page may read why (it is allowed to call); it cannot have the mock act.
			expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:8080');
		}
		expect(await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.requests}`).then((r) => r.json())).toEqual(before);
	});

	it('runs with Content-Type: application/json, or with an X-Mock-Control header', async () => {
		const json = await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.process}`, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' } });
		expect(json.status).toBe(200);
		const header = await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.reset}`, { method: 'POST', headers: { 'x-mock-control': '1' } });
		expect([header.status, await header.json()]).toEqual([200, { reset: true }]);
	});
});

describe('cross-origin reading of the control routes', () => {
	it('by default a page on another origin cannot read GET /__mock/accounts (every token) nor preflight a control route: 403, no CORS header', async () => {
		const accounts = await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { origin: 'https://evil.example' });
		expect([accounts.status, accounts.headers['access-control-allow-origin']]).toEqual([403, undefined]);
		expect(accounts.body).not.toContain(DEMO_TOKEN);
		const preflight = await send(`OPTIONS ${MOCK_CONTROL_PATHS.reset} HTTP/1.1`, { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
		expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([403, undefined]);
		// The service's own routes are closed to it alike (cors.test.mts: every route family).
		const api = await send('GET /v2/collections HTTP/1.1', { origin: 'https://evil.example', authorization: `Bearer ${DEMO_TOKEN}` });
		expect([api.status, api.headers['access-control-allow-origin']]).toEqual([403, undefined]);
	});

	it('an origin listed in --cors-origin may read and drive them; another may not', async () => {
		const to = Number(new URL(listed.appUrl).port);
		const accounts = await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { origin: PAGE }, '', to);
		expect([accounts.status, accounts.headers['access-control-allow-origin']]).toEqual([200, PAGE]);
		const preflight = await send(`OPTIONS ${MOCK_CONTROL_PATHS.reset} HTTP/1.1`, { origin: PAGE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }, '', to);
		expect([preflight.status, preflight.headers['access-control-allow-origin'], preflight.headers['access-control-allow-headers']]).toEqual([204, PAGE, 'content-type']);
		const other = await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { origin: 'https://evil.example' }, '', to);
		expect([other.status, other.headers['access-control-allow-origin']]).toEqual([403, undefined]);
	});
});

describe('Host (DNS rebinding)', () => {
	it.each(['attacker.example', 'attacker.example:4010', 'localhost.attacker.example', 'mock.test.evil'])('refuses Host: %s with 403 JSON', async (host) => {
		const answer = await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { host });
		expect(answer.status).toBe(403);
		expect(errorOf(answer.body).message).toMatch(/is not this mock's address.*--allowed-hosts/);
		expect(answer.body).not.toContain(DEMO_TOKEN);
	});

	it.each(['127.0.0.1', '127.0.0.1:1', 'localhost', 'mock.test', 'MOCK.TEST:80', '[::1]', '10.1.2.3'])('serves Host: %s (loopback, an IP literal, or a name given to allowedHosts)', async (host) => {
		expect((await send(`GET ${MOCK_CONTROL_PATHS.accounts} HTTP/1.1`, { host })).status).toBe(200);
	});
});

describe('paths', () => {
	it.each(['/foo/bar/v2/collections', '/v2/foo/v2/collections', '/x/__mock/accounts', '/prefix/openapi.json', '/v2/collections/extra/segments/sources'])('answers 404 JSON to %s (only the real paths are served)', async (path) => {
		const answer = await send(`GET ${path} HTTP/1.1`, { authorization: `Bearer ${DEMO_TOKEN}` });
		expect(answer.status).toBe(404);
		expect(errorOf(answer.body).status).toBe(404);
	});

	it('serves the real paths, with or without a trailing slash', async () => {
		for (const path of ['/v2/collections', '/v2/collections/', '/v2/jobs/filters', '/openapi.json', MOCK_CONTROL_PATHS.accounts, '/__mock/accounts/acc_demo/subscribers']) {
			expect((await send(`GET ${path} HTTP/1.1`, { authorization: `Bearer ${DEMO_TOKEN}` })).status, path).toBe(200);
		}
	});
});

describe("what node's HTTP parser refuses", () => {
	it.each([
		['a malformed request line', 'GET /v2/collections HTTP/9.9\r\nhost: 127.0.0.1\r\n\r\n', 400],
		['a header without a colon', 'GET /v2/collections HTTP/1.1\r\nhost: 127.0.0.1\r\nno colon here\r\n\r\n', 400],
		['a bad Content-Length', 'POST /v2/collections HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: abc\r\n\r\n', 400],
		['headers larger than node allows', `GET /v2/collections HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
	])('answers %s with the JSON error shape', async (_name, head, status) => {
		const answer = await rawRequest(port, head);
		expect(answer.status).toBe(status);
		expect(answer.headers['content-type']).toBe('application/json');
		const body = errorOf(answer.body);
		expect(body.status).toBe(status);
		expect(body.message).toMatch(/node's HTTP parser refused the request/);
	});
});

describe('a client that goes away mid-body', () => {
	afterEach(() => {
		vi.restoreAllMocks();
	});

	it('is not logged as a mock bug, and the server keeps serving', async () => {
		const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		await new Promise<void>((resolve) => {
			const socket = connect(port, '127.0.0.1', () => {
				socket.write(`POST ${MOCK_CONTROL_PATHS.faults} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"faults": [`);
				setTimeout(() => socket.destroy(), 50);
			});
			socket.on('close', () => resolve());
		});
		// The next request is answered after the server has seen the close (one connection at a time here).
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect((await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.accounts}`)).status).toBe(200);
		expect(errors.mock.calls.map((c) => String(c[0]))).not.toContainEqual(expect.stringMatching(/unhandled error/));
	});
});

describe('--host and --cors-origin *, on start', () => {
	const started: CliProcess[] = [];
	afterEach(() => {
		for (const cli of started.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
	});

	it('warns, on start, that a non-loopback address exposes the unauthenticated control routes, and that --cors-origin * lets any page call the service; the defaults do not', async () => {
		const open = runCli(['--port', '0', '--host', '0.0.0.0', '--cors-origin', '*', '--sources', '5', '--jobs', '50', '--signals', '50']);
		const local = runCli(['--port', '0', '--sources', '5', '--jobs', '50', '--signals', '50']);
		started.push(open, local);
		await Promise.all([open.waitFor(/CORS: .*\n/), local.waitFor(/CORS: .*\n/)]);
		expect(open.output().stderr).toMatch(/warning: --host 0\.0\.0\.0 lets other machines reach the mock.*control routes \(\/__mock\/\.\.\.\) have no authentication/);
		expect(open.output().stderr).toMatch(/warning: --cors-origin \* lets every web page you open call the service: read its data \(a --data clone of a real account too\) and register webhooks to any address/);
		expect(open.output().stdout).toMatch(/CORS: +any page may call the service \(--cors-origin \*\); the control routes \(\/__mock\/\.\.\., \/__admin\/\.\.\.\) only the mock's own page\n/);
		expect(local.output().stderr).not.toMatch(/warning/);
	});
});
