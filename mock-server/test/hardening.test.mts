// The standalone server answers a client's mistake with a 4xx, never a 500, and keeps what it stores bounded (raw sockets, so fetch's own checks do not hide anything).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, MOCK_CONTROL_PATHS, ENDPOINTS, apiErrorSchema } from '../src/base/contract.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';
import { rawRequest } from './raw-http.mts';

let server: RunningMockServer;
let port: number;
let host: string;
beforeAll(async () => {
	server = await startMockServer({ ...SMALL, port: 0 });
	host = new URL(server.appUrl).host;
	port = Number(new URL(server.appUrl).port);
});
afterAll(async () => {
	await server?.close();
});

const send = (line: string, headers: Record<string, string> = {}, body = '') => {
	const all = { host, connection: 'close', ...headers, ...(body === '' ? {} : { 'content-length': String(Buffer.byteLength(body)) }) };
	const head = `${line}\r\n${Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
	return rawRequest(port, head, body);
};
const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
const errorOf = (body: string) => apiErrorSchema.strict().parse(JSON.parse(body));

describe('standalone server hardening', () => {
	it.each([
		['an asterisk target', 'OPTIONS * HTTP/1.1'],
		['an absolute-URI target', 'GET http://elsewhere.example/v2/collections HTTP/1.1'],
		['an authority target', 'CONNECT elsewhere.example:443 HTTP/1.1'],
	])('answers 400 to %s', async (_name, line) => {
		const answer = await send(line, auth);
		expect(answer.status).toBe(400);
		expect(errorOf(answer.body).message).toMatch(/request target/);
	});

	it.each(['a/b', 'a?b', 'a b', '@', '[::1', 'example.com:99999', 'exa_mple.com', 'ä.example'])('answers 400 to Host: %s', async (bad) => {
		const answer = await send('GET /v2/collections HTTP/1.1', { ...auth, host: bad });
		expect(answer.status).toBe(400);
	});

	it('serves a plain Host with or without a port: localhost or an IP literal', async () => {
		for (const good of ['localhost', `localhost:${port}`, 'LOCALHOST.', '127.0.0.1', '[::1]:80', 'app.localhost']) {
			expect((await send('GET /v2/collections HTTP/1.1', { ...auth, host: good })).status).toBe(200);
		}
	});

	it('answers 405 with Allow to a method a known path does not serve, 204 with Allow to OPTIONS, 404 on an unknown path', async () => {
		for (const method of ['TRACE', 'PATCH', 'PUT', 'PROPFIND', 'PURGE']) {
			const answer = await send(`${method} /v2/collections HTTP/1.1`, auth);
			expect(answer.status, method).toBe(405);
			expect(answer.headers.allow).toBe('GET, HEAD, OPTIONS');
			expect(errorOf(answer.body).status).toBe(405);
		}
		expect((await send(`DELETE ${ENDPOINTS.listWebhooks.path} HTTP/1.1`, auth)).headers.allow).toBe('GET, HEAD, OPTIONS, POST');
		const options = await send('OPTIONS /v2/jobs/job_1 HTTP/1.1');
		expect([options.status, options.headers.allow]).toEqual([204, 'GET, HEAD, OPTIONS']);
		expect((await send('TRACE /nothing/here HTTP/1.1')).status).toBe(404);
		// A method node's HTTP parser does not know is its own 400.
		expect((await send('BREW /v2/collections HTTP/1.1', auth)).status).toBe(400);
	});

	it('answers HEAD like GET without the body', async () => {
		const head = await send('HEAD /v2/collections HTTP/1.1', auth);
		expect(head.status).toBe(200);
		expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
		expect(head.body).toBe('');
	});

	it('answers 414 to a request target over the limit, and serves one just under it', async () => {
		const path = (length: number) => `/v2/collections?pad=${'x'.repeat(length - '/v2/collections?pad='.length)}`;
		expect((await send(`GET ${path(LIMITS.maxRequestTargetLength + 1)} HTTP/1.1`, auth)).status).toBe(414);
		expect((await send(`GET ${path(LIMITS.maxRequestTargetLength)} HTTP/1.1`, auth)).status).toBe(200);
	});

	it('answers 413 to a body over the limit, declared or chunked, and reads one at the limit', async () => {
		const max = LIMITS.maxRequestBodyBytes;
		const declared = await rawRequest(port, `POST ${ENDPOINTS.subscriberUpload.path} HTTP/1.1\r\nhost: ${host}\r\ncontent-length: ${max + 1}\r\n\r\n`);
		expect(declared.status).toBe(413);
		const chunk = Buffer.alloc(64 * 1024, 'x');
		const chunks = Math.ceil((max + 1) / chunk.length) + 1;
		const chunked = Buffer.concat(Array.from({ length: chunks }, () => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])));
		const streamed = await rawRequest(port, `POST ${ENDPOINTS.subscriberUpload.path} HTTP/1.1\r\nhost: ${host}\r\ntransfer-encoding: chunked\r\n\r\n`, Buffer.concat([chunked, Buffer.from('0\r\n\r\n')]));
		expect(streamed.status).toBe(413);
		const atLimit = JSON.stringify({ email_addresses: 'fits@example.com', access_token: DEMO_TOKEN }).padEnd(max, ' ');
		expect((await send(`POST ${ENDPOINTS.subscriberUpload.path} HTTP/1.1`, {}, atLimit)).status).toBe(200);
	});

	it('answers 400 naming a single-valued query parameter given twice', async () => {
		const answer = await send('GET /v2/signals/problems?page=1&page=2 HTTP/1.1', auth);
		expect(answer.status).toBe(400);
		expect(errorOf(answer.body).message).toMatch(/"page": given more than once/);
	});

	it('the control routes are hardened the same way', async () => {
		expect((await send(`TRACE ${MOCK_CONTROL_PATHS.faults} HTTP/1.1`)).status).toBe(405);
	});
});
