/**
 * Pages on other origins against the standalone mock, in a real browser (Debian's Chromium driven by
 * playwright-core, as page.test.mts). A page on http://127.0.0.2:PORT (loopback on Linux, but not one of the
 * origins the mock serves by default: another origin, and another site) tries what the tester did: read
 * /v2 and the control routes, register a webhook (a preflighted POST), and the simple requests a browser sends
 * without a preflight (no-cors POSTs to the subscriber upload, the webhook route, /__mock/reset and the admin
 * API; an <img> GET, which carries no Origin). It reads nothing, and nothing changes in the mock; each simple
 * request, and each preflight, did reach the mock and was answered 403 (Chromium's own network events say so). A page on http://127.0.0.1:OTHER_PORT (a loopback origin)
 * reads and registers its webhook.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHOICES, MOCK_CONTROL_PATHS } from '../src/base/contract.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';

const CHROMIUM = '/usr/bin/chromium';
/** No deliveries are made here (no cycle runs): the address only has to be a valid setting. */
const RECEIVER = 'https://receiver.example/hook';
/** What Chromium's network events may take to arrive, on a busy machine. */
const SEEN = { timeout: 15_000, interval: 100 };
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let mock: RunningMockServer;
let browser: Browser;
const pageServers: Server[] = [];

/** A page server: one empty HTML document, for a page to run its script in. */
async function servePage(host: string): Promise<string> {
	const server = createServer((_request, response) => {
		response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		response.end('<!doctype html><title>a page</title>');
	});
	pageServers.push(server);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, host, resolve);
	});
	return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/** What a page on another origin could take or change. */
async function state(): Promise<unknown> {
	const control = async (path: string) => (await fetch(`${mock.appUrl}${path}`)).json() as Promise<unknown>;
	return {
		webhooks: mock.service.webhooks.settings.list('acc_demo'),
		subscribers: await control('/__mock/accounts/acc_demo/subscribers'),
		faults: await control(MOCK_CONTROL_PATHS.faults),
		stubs: await control('/__admin/mappings'),
		journal: mock.service.requests().data.length,
	};
}

/**
 * Opens `origin`'s page and collects the mock's answers the browser got, by Chromium's own network events: the
 * status of every request it sent to the mock, CORS preflights and answers the page could not read included
 * (playwright reports those as failed, without their status).
 */
async function open(origin: string): Promise<{ page: Page; answers: string[] }> {
	const page = await browser.newPage();
	const cdp = await page.context().newCDPSession(page);
	// CDP sends a request's ExtraInfo events in no fixed order with its main ones (an answer's status can come before
	// the request it answers), so each side waits in its map for the other.
	const sent = new Map<string, string>();
	const statuses = new Map<string, number>();
	const answers: string[] = [];
	cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
		if (!request.url.startsWith(mock.appUrl)) return;
		const status = statuses.get(requestId);
		if (status === undefined) sent.set(requestId, `${request.method} ${new URL(request.url).pathname}`);
		else answers.push(`${request.method} ${new URL(request.url).pathname} ${status}`);
	});
	cdp.on('Network.responseReceivedExtraInfo', ({ requestId, statusCode }) => {
		const request = sent.get(requestId);
		if (request === undefined) statuses.set(requestId, statusCode);
		else answers.push(`${request} ${statusCode}`);
	});
	await cdp.send('Network.enable');
	expect((await page.goto(`${origin}/`))?.status()).toBe(200);
	return { page, answers };
}

beforeAll(async () => {
	if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium), as .ci/run does`);
	// A rate limit, so that its headers are there for the loopback page to read.
	mock = await startMockServer({ ...SMALL, port: 0, rateLimit: 60 });
	// playwright-core runs Chromium headless with a fresh profile folder of its own.
	browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
});

afterAll(async () => {
	await browser?.close();
	for (const server of pageServers) server.close();
	await mock?.close();
});

describe('in Chromium, a page on another origin', () => {
	it('reads nothing, registers no webhook, and its simple requests reach the mock and are refused (403) without changing anything', async () => {
		expect(mock.appUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		// Something a page would want: the demo account's webhook, set as n8n sets it (no Origin).
		const setting = await fetch(`${mock.appUrl}/api/webhooks`, {
			method: 'POST',
			headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
			body: JSON.stringify({ url: RECEIVER, event_types: ['job_created'] }),
		});
		expect(setting.status).toBe(201);
		const before = await state();
		const { page, answers } = await open(await servePage('127.0.0.2'));

		const tried = await page.evaluate(
			async ({ mockUrl, token }) => {
				const outcome = (promise: Promise<Response>) =>
					promise.then(
						async (response) => `read ${response.status}: ${(await response.text()).slice(0, 80)}`,
						(error: unknown) => `refused: ${(error as Error).name}`,
					);
				const simple = (path: string, body: string) => fetch(`${mockUrl}${path}`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body });
				const image = await new Promise<string>((resolve) => {
					const img = new Image();
					img.onload = () => resolve('loaded');
					img.onerror = () => resolve('error');
					img.src = `${mockUrl}/v2/collections`;
				});
				return {
					readApi: await outcome(fetch(`${mockUrl}/v2/collections`, { headers: { authorization: `Bearer ${token}` } })),
					readOpenApi: await outcome(fetch(`${mockUrl}/openapi.json`)),
					readAccounts: await outcome(fetch(`${mockUrl}/__mock/accounts`)),
					preflighted: await outcome(
						fetch(`${mockUrl}/api/webhooks`, {
							method: 'POST',
							headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
							body: JSON.stringify({ url: 'https://attacker.example/hook', event_types: ['signal'] }),
						}),
					),
					// no-cors: the page gets an opaque answer whatever the server did; what matters is what the mock did.
					upload: (await simple('/api/subscribers/upload', JSON.stringify({ email_addresses: 'victim@example.com', access_token: token }))).type,
					webhook: (await simple('/api/webhooks', JSON.stringify({ url: 'https://attacker.example/hook', event_types: ['signal'] }))).type,
					reset: (await simple('/__mock/reset', '{}')).type,
					stub: (await simple('/__admin/mappings', JSON.stringify({ request: { urlPath: '/v2/jobs/x' }, response: { status: 200 } }))).type,
					image,
				};
			},
			{ mockUrl: mock.appUrl, token: DEMO_TOKEN },
		);
		expect(tried).toEqual({
			readApi: 'refused: TypeError',
			readOpenApi: 'refused: TypeError',
			readAccounts: 'refused: TypeError',
			preflighted: 'refused: TypeError',
			upload: 'opaque',
			webhook: 'opaque',
			reset: 'opaque',
			stub: 'opaque',
			image: 'error',
		});
		// Each request the browser sent reached the mock and was refused: the simple ones (the <img> is the GET of
		// /v2/collections), and the preflights of the others, which were then never sent.
		// Chromium's events may come a moment after the page's promises settle.
		await expect.poll(() => [...answers].sort(), SEEN).toEqual([
			'GET /__mock/accounts 403',
			'GET /openapi.json 403',
			'GET /v2/collections 403',
			'OPTIONS /api/webhooks 403',
			'OPTIONS /v2/collections 403',
			'POST /__admin/mappings 403',
			'POST /__mock/reset 403',
			'POST /api/subscribers/upload 403',
			'POST /api/webhooks 403',
		]);
		expect(await state()).toEqual(before);
		await page.close();
	});
});

describe('in Chromium, a page on a loopback origin', () => {
	it('reads the service (and the exposed rate-limit headers) and registers a webhook', async () => {
		await mock.service.reset();
		const origin = await servePage('127.0.0.1');
		expect(origin).not.toBe(mock.appUrl);
		const { page, answers } = await open(origin);
		const done = await page.evaluate(
			async ({ mockUrl, token, remainingHeader, receiver }) => {
				const read = await fetch(`${mockUrl}/v2/collections`, { headers: { authorization: `Bearer ${token}` } });
				const body = (await read.json()) as { data: unknown[] };
				const created = await fetch(`${mockUrl}/api/webhooks`, {
					method: 'POST',
					headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
					body: JSON.stringify({ url: receiver, event_types: ['signal'] }),
				});
				return { status: read.status, collections: body.data.length, remaining: read.headers.get(remainingHeader), created: created.status };
			},
			{ mockUrl: mock.appUrl, token: DEMO_TOKEN, remainingHeader: CHOICES.rateLimitHeaderNames.remaining, receiver: RECEIVER },
		);
		expect(done).toMatchObject({ status: 200, created: 201 });
		expect(done.collections).toBeGreaterThan(0);
		// Exposed to the page's script (Access-Control-Expose-Headers): the first call of the minute.
		expect(done.remaining).toBe('59');
		expect(mock.service.webhooks.settings.list('acc_demo')).toEqual([expect.objectContaining({ url: RECEIVER, event_types: ['signal'] })]);
		await expect.poll(() => [...answers].sort(), SEEN).toEqual(['GET /v2/collections 200', 'OPTIONS /api/webhooks 204', 'OPTIONS /v2/collections 204', 'POST /api/webhooks 201']);
		await page.close();
	});
});
