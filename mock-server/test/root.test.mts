// The standalone server's front door (GET /, src/page/root.mts): JSON or HTML by Accept, each link it gives answers,
// the same Host and origin checks as the page; and the 413 that names the flag setting the limit.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, MOCK_CONTROL_PATHS, OPENAPI_DOCUMENT_PATH } from '../src/base/contract.mts';
import { PAGE_PATH } from '../src/page/page.mts';
import { prefersHtml, readmeUrl, type RootAnswer } from '../src/page/root.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { rawRequest } from './raw-http.mts';
import { SMALL } from './harness.mts';

/** What Chromium 13x sends for a top-level navigation. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const MAX_BODY_BYTES = 2048;

let server: RunningMockServer;
beforeAll(async () => {
	server = await startMockServer({ ...SMALL, port: 0, maxBodyBytes: MAX_BODY_BYTES });
});
afterAll(() => server?.close());

describe('GET /', () => {
	it('answers JSON without Accept, with */* and with Accept: application/json: links at the address asked, each of which answers 200', async () => {
		for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
			const answer = await fetch(`${server.appUrl}/`, { headers: accept === undefined ? {} : { accept } });
			expect([answer.status, answer.headers.get('content-type'), answer.headers.get('vary')], String(accept)).toEqual([200, 'application/json', 'Accept, Origin']);
			const body = (await answer.json()) as RootAnswer;
			expect(body).toEqual({
				name: 'job-signals-mock-server',
				version: expect.stringMatching(/^\d+\.\d+\.\d+/),
				page: `${server.appUrl}${PAGE_PATH}`,
				openapi: `${server.appUrl}${OPENAPI_DOCUMENT_PATH}`,
				control_openapi: `${server.appUrl}${MOCK_CONTROL_PATHS.openapi}`,
				api: server.apiUrl,
				// This repository's mock-server/package.json has no repository (publish.yml sets it when publishing).
				readme: null,
				readme_file: join(__dirname, '..', 'README.md'),
			});
			expect(existsSync(body.readme_file!)).toBe(true);
			for (const link of [body.page, body.openapi, body.control_openapi]) expect((await fetch(link)).status, link).toBe(200);
		}
	});

	it('answers HTML to a browser, linking the page, both documents and the README, under a policy that allows only its own style', async () => {
		const answer = await fetch(`${server.appUrl}/`, { headers: { accept: BROWSER_ACCEPT } });
		expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
		expect(answer.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; img-src data:;/);
		const html = await answer.text();
		expect([...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1])).toEqual([
			`${server.appUrl}${PAGE_PATH}`,
			`${server.appUrl}${OPENAPI_DOCUMENT_PATH}`,
			`${server.appUrl}${MOCK_CONTROL_PATHS.openapi}`,
		]);
		expect(html).toContain(`README: in the installed package: <code>${join(__dirname, '..', 'README.md')}</code>`);
		const head = await fetch(`${server.appUrl}/`, { method: 'HEAD', headers: { accept: BROWSER_ACCEPT } });
		expect([head.status, await head.text(), head.headers.get('content-length')]).toEqual([200, '', String(Buffer.byteLength(html))]);
		const options = await fetch(`${server.appUrl}/`, { method: 'OPTIONS' });
		expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
		const post = await fetch(`${server.appUrl}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		expect([post.status, ((await post.json()) as { message: string }).message]).toEqual([405, 'POST is not allowed here; allowed: GET, HEAD, OPTIONS']);
	});

	it('is refused as the page is: a page on another origin (403 before anything, no CORS header), a Host not the mock\'s; a link from another site opens it', async () => {
		const read = await fetch(`${server.appUrl}/`, { headers: { origin: 'https://evil.example' } });
		expect([read.status, read.headers.get('access-control-allow-origin')]).toEqual([403, null]);
		expect(((await read.json()) as { message: string }).message).toMatch(/^A page on "https:\/\/evil\.example" may not call this path/);
		const noCors = await fetch(`${server.appUrl}/`, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' } });
		expect(noCors.status).toBe(403);
		const port = Number(new URL(server.appUrl).port);
		expect((await rawRequest(port, 'GET / HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n')).status).toBe(403);
		// Raw: Node's fetch sends its own Sec-Fetch-Mode.
		const link = await rawRequest(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-Dest: document\r\nAccept: ${BROWSER_ACCEPT}\r\nConnection: close\r\n\r\n`);
		expect([link.status, link.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
		// A loopback page (allowed by default) reads the JSON, with its CORS headers.
		const local = await fetch(`${server.appUrl}/`, { headers: { origin: 'http://localhost:3000' } });
		expect([local.status, local.headers.get('access-control-allow-origin')]).toEqual([200, 'http://localhost:3000']);
	});

	it('chooses HTML only when the client prefers it: q-values, the most specific range deciding', () => {
		expect(prefersHtml(null)).toBe(false);
		expect(prefersHtml(BROWSER_ACCEPT)).toBe(true);
		expect(prefersHtml('text/html')).toBe(true);
		expect(prefersHtml('text/*')).toBe(true);
		expect(prefersHtml('*/*')).toBe(false);
		expect(prefersHtml('text/html;q=0.5, application/json')).toBe(false);
		expect(prefersHtml('application/json;q=0.2, text/html;q=0.3')).toBe(true);
		expect(prefersHtml('text/html;q=0, */*')).toBe(false);
	});

	it('gives the README on the web from package.json\'s repository, as publish.yml sets it', () => {
		expect(readmeUrl({ url: 'git+https://github.com/acme/n8n-nodes-job-signals.git', directory: 'mock-server' })).toBe('https://github.com/acme/n8n-nodes-job-signals/blob/HEAD/mock-server/README.md');
		expect(readmeUrl('https://github.com/acme/job-signals-mock')).toBe('https://github.com/acme/job-signals-mock/blob/HEAD/README.md');
		expect(readmeUrl({ url: 'git+https://gitlab.example/acme/mock.git' })).toBe('https://gitlab.example/acme/mock');
		expect(readmeUrl(undefined)).toBeNull();
		expect(readmeUrl({ url: 'git@github.com:acme/mock.git' })).toBeNull();
	});
});

describe('413', () => {
	it('names the limit and the flag that sets it, declared or chunked', async () => {
		const port = Number(new URL(server.appUrl).port);
		const message = `The request body is larger than ${MAX_BODY_BYTES} bytes, this mock's limit: start it with a larger --max-body-bytes (startMockServer's maxBodyBytes; default ${LIMITS.maxRequestBodyBytes})`;
		const declared = await rawRequest(port, `POST ${MOCK_CONTROL_PATHS.faults} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${MAX_BODY_BYTES + 1}\r\n\r\n`);
		expect([declared.status, (JSON.parse(declared.body) as { message: string }).message]).toEqual([413, message]);
		const chunk = 'x'.repeat(MAX_BODY_BYTES + 1);
		const chunked = await rawRequest(port, `PUT ${MOCK_CONTROL_PATHS.faults} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`, `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`);
		expect([chunked.status, (JSON.parse(chunked.body) as { message: string }).message]).toEqual([413, message]);
		// At the limit it is read (and answered by the route).
		const atLimit = await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.faults}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [] }).padEnd(MAX_BODY_BYTES, ' ') });
		expect(atLimit.status).toBe(200);
	});
});
