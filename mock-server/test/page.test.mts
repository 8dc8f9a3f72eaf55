/**
 * The page (GET /__mock/ui) in a real browser: Debian's Chromium driven by playwright-core, as the editor e2e
 * does, against the standalone mock on a free port. Each view must show what the mock holds: a request made is
 * in the journal, a cycle run from the page's button shows its deliveries with their attempts, a fault rule and
 * a stub added over HTTP show, the clock moves with its buttons, reset empties it all; a route a mock lacks
 * shows "Not available". The page's own policy must hold: no console error (a CSP violation is one).
 * With JOB_SIGNALS_SCREENSHOTS=1 it takes the README's pictures again (docs/images/mock-page-*.png).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_CONTROL_PATHS, WEBHOOK_EVENT_TYPES } from '../src/base/contract.mts';
import { PAGE_PATH } from '../src/page/page.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';
import { rawRequest } from './raw-http.mts';
import { startReceiver, type Receiver } from './receiver.mts';

/** Debian's package (.ci/run installs it); playwright-core downloads no browser. */
const CHROMIUM = '/usr/bin/chromium';
const RATE_LIMIT = 60;
const QUEUE_CAP = 10;
/** What the page's views may take to show a change: a poll a second, on a busy machine. */
const SHOWN = { timeout: 15_000, interval: 100 };
/** A test's steps each wait up to SHOWN for the page; on a machine shared with other test runs (load average 20 on 2 cores seen) they add up past vitest's 30 s. */
const BROWSER_TEST = { timeout: 180_000 };
const screenshots = process.env.JOB_SIGNALS_SCREENSHOTS === '1' ? join(__dirname, '..', '..', 'docs', 'images') : undefined;

let server: RunningMockServer;
let receiver: Receiver;
let browser: Browser;
let page: Page;
const problems: string[] = [];

const JSON_TYPE = { 'content-type': 'application/json' };
const control = (path: string, method: string, body?: unknown) =>
	fetch(`${server.appUrl}${path}`, { method, headers: JSON_TYPE, body: body === undefined ? undefined : JSON.stringify(body) });
const api = (path: string, token = DEMO_TOKEN) => fetch(`${server.apiUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
const text = (selector: string) => page.locator(selector).innerText();

beforeAll(async () => {
	if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium), as .ci/run does`);
	// timeScale 0.1: deliveries 100 ms apart, the first retry 100 ms after a failure; a 6 s rate-limit window.
	// 10 deliveries queued at most: a cycle's last ones (the usual cycle makes 13 for the demo account) are not sent.
	server = await startMockServer({ ...SMALL, port: 0, rateLimit: RATE_LIMIT, timeScale: 0.1, maxQueuedDeliveries: QUEUE_CAP });
	receiver = await startReceiver((_request, _body, response) => void response.end('ok'));
	browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
	page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
	page.on('console', (message) => {
		if (message.type() === 'error') problems.push(message.text());
	});
	page.on('pageerror', (error) => problems.push(error.message));
});

afterAll(async () => {
	await browser?.close();
	await receiver?.close();
	await server?.close();
});

async function screenshot(name: string, selector?: string): Promise<void> {
	if (!screenshots) return;
	mkdirSync(screenshots, { recursive: true });
	const path = join(screenshots, `mock-page-${name}.png`);
	if (selector) await page.locator(selector).screenshot({ path });
	else await page.screenshot({ path, fullPage: true });
}

describe('the page, as the server sends it', () => {
	it('GET /__mock/ui is HTML with a policy that allows only its own inline style and script; HEAD, OPTIONS and other methods answer as the routes do', async () => {
		const answer = await fetch(`${server.appUrl}${PAGE_PATH}`);
		expect(answer.status).toBe(200);
		expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
		const csp = answer.headers.get('content-security-policy') ?? '';
		expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'sha256-[A-Za-z0-9+/]+=*'; connect-src 'self';/);
		expect(csp).not.toMatch(/unsafe|\*/);
		expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
		const html = await answer.text();
		expect(html).toMatch(/^<!doctype html>/);
		// Nothing from elsewhere: no src or href but the empty data: icon.
		expect([...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1])).toEqual(['data:,']);
		expect((await fetch(`${server.appUrl}${PAGE_PATH}/`)).status).toBe(200);
		const head = await fetch(`${server.appUrl}${PAGE_PATH}`, { method: 'HEAD' });
		expect([head.status, await head.text(), head.headers.get('content-length')]).toEqual([200, '', String(Buffer.byteLength(html))]);
		const options = await fetch(`${server.appUrl}${PAGE_PATH}`, { method: 'OPTIONS' });
		expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
		const post = await fetch(`${server.appUrl}${PAGE_PATH}`, { method: 'POST', headers: JSON_TYPE, body: '{}' });
		expect([post.status, post.headers.get('allow'), ((await post.json()) as { message: string }).message]).toEqual([405, 'GET, HEAD, OPTIONS', 'POST is not allowed here; allowed: GET, HEAD, OPTIONS']);
	});

	it('is local-only as the control routes: a Host that is not the mock\'s is refused (DNS rebinding), and a page on another origin is refused (403, no CORS header)', async () => {
		const port = Number(new URL(server.appUrl).port);
		const rebound = await rawRequest(port, `GET ${PAGE_PATH} HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n`);
		expect(rebound.status).toBe(403);
		const read = await fetch(`${server.appUrl}${PAGE_PATH}`, { headers: { origin: 'https://evil.example' } });
		expect([read.status, read.headers.get('access-control-allow-origin')]).toEqual([403, null]);
	});
});

describe('the page in Chromium', () => {
	it('shows the accounts and their budgets, the journal with its filters, the deliveries of a cycle run from its button, the rules, the clock; reset empties them', BROWSER_TEST, async () => {
		const setting = await fetch(`${server.appUrl}/api/webhooks`, {
			method: 'POST',
			headers: { ...JSON_TYPE, authorization: `Bearer ${DEMO_TOKEN}` },
			body: JSON.stringify({ url: receiver.url, event_types: WEBHOOK_EVENT_TYPES }),
		});
		expect(setting.status).toBe(201);
		const response = await page.goto(`${server.appUrl}${PAGE_PATH}`);
		expect(response?.status()).toBe(200);

		// Accounts: the three, each budget whole; two calls later the demo account's shows them spent (the clock
		// frozen meanwhile, so the window cannot end before the page shows it).
		await expect.poll(() => text('#accounts-view'), SHOWN).toContain('acc_volume');
		expect(await text('#accounts-view tr:has-text("acc_second")')).toContain(`${RATE_LIMIT} / ${RATE_LIMIT} left, whole`);
		expect((await control(MOCK_CONTROL_PATHS.clock, 'PUT', {})).status).toBe(200);
		expect((await api('/collections')).status).toBe(200);
		expect((await api('/signals/problems?per_page=5')).status).toBe(200);
		expect((await api('/collections', 'not-a-token')).status).toBe(400);
		await expect.poll(() => text('#accounts-view tr:has-text("acc_demo")'), SHOWN).toMatch(new RegExp(`${RATE_LIMIT - 2} / ${RATE_LIMIT} left, resets in \\d`));
		expect((await control(MOCK_CONTROL_PATHS.clock, 'DELETE')).status).toBe(204);

		// The journal, newest first (the time cut off); each filter narrows it.
		const rows = async () => (await page.locator('#requests-view tbody tr').allInnerTexts()).map((row) => row.split('\t').slice(1).join(' | '));
		await expect.poll(rows, SHOWN).toEqual([
			'GET | /v2/collections | — | 400 | ',
			'GET | /v2/signals/problems?per_page=5 | acc_demo | 200 | ',
			'GET | /v2/collections | acc_demo | 200 | ',
			'POST | /api/webhooks | acc_demo | 201 | ',
		]);
		expect(await text('#requests-count')).toBe('4 matching');
		await page.selectOption('#filter-status', '4xx');
		await expect.poll(rows, SHOWN).toEqual(['GET | /v2/collections | — | 400 | ']);
		await page.selectOption('#filter-status', '');
		await page.fill('#filter-path', '/v2/signals');
		await page.locator('#filter-path').dispatchEvent('change');
		await expect.poll(rows, SHOWN).toEqual(['GET | /v2/signals/problems?per_page=5 | acc_demo | 200 | ']);
		await page.fill('#filter-path', 'no-slash');
		await page.locator('#filter-path').dispatchEvent('change');
		await expect.poll(() => text('#requests-view'), SHOWN).toContain(`GET ${MOCK_CONTROL_PATHS.requests} answered 400: Invalid filter "path"`);
		await page.fill('#filter-path', '');
		await page.locator('#filter-path').dispatchEvent('change');
		await page.selectOption('#filter-account', 'acc_demo');
		await page.selectOption('#filter-method', 'GET');
		await expect.poll(() => page.locator('#requests-view tbody tr').count(), SHOWN).toBe(2);
		await page.selectOption('#filter-account', '');
		await page.selectOption('#filter-method', '');

		// Rules: a receiver failure rule (the first attempt fails, its retry gets through), a fault rule, a stub.
		expect((await control(MOCK_CONTROL_PATHS.failures, 'POST', { url: receiver.url, fail_next: 1, failure: 'status', status: 503 })).status).toBe(200);
		expect((await control(MOCK_CONTROL_PATHS.faults, 'PUT', { faults: [{ path: '/v2/jobs', method: 'GET', status: 503, times: 2 }] })).status).toBe(200);
		const stub = { request: { method: 'GET', urlPath: '/v2/jobs/job_stub' }, response: { status: 200, jsonBody: {} }, name: 'A stubbed job' };
		expect((await control('/__admin/mappings', 'POST', stub)).status).toBe(201);
		await expect.poll(() => text('#failures-view'), SHOWN).toContain(`${receiver.url}\tstatus 503\t1 of 1\tyes`);
		await expect.poll(() => text('#faults-view'), SHOWN).toContain('/v2/jobs\tGET\tstatus 503\t1\t0\t2 of 2');
		await expect.poll(() => text('#stubs-view'), SHOWN).toContain('GET\t/v2/jobs/job_stub\t200\tA stubbed job');

		// A cycle from the page's button: its events' deliveries, the first with its failed attempt and the retry.
		await page.click('#run-cycle');
		await expect.poll(() => text('#status'), SHOWN).toMatch(/^Cycle run: \d+ events\.$/);
		await server.service.webhooks.engine.idle();
		type Logged = { webhook_event_id: string | null; outcome: string; error: string | null; count?: number; injected?: true };
		const log = ((await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.deliveries}`).then((r) => r.json())) as { data: Logged[] }).data;
		// An event a row (its attempts), and a row for each entry of deliveries the queue's cap kept from being sent.
		const notSent = log.filter((entry) => entry.webhook_event_id === null);
		const events = new Set(log.map((entry) => entry.webhook_event_id).filter((id) => id !== null)).size;
		expect(events).toBe(QUEUE_CAP);
		expect(notSent.length).toBeGreaterThan(0);
		await expect.poll(() => text('#deliveries-count'), SHOWN).toBe(`${log.length - notSent.length} attempts, ${events} events`);
		expect(await page.locator('#deliveries-view tr.event').count()).toBe(events + notSent.length);
		expect(notSent.map((entry) => entry.error)).toEqual(notSent.map(() => expect.stringContaining(`the delivery queue is full (${QUEUE_CAP} deliveries queued`)));
		expect(await page.locator('#deliveries-view tr.event[data-event-id=""] li.attempt').allInnerTexts()).toEqual(notSent.map((entry) => entry.error));
		expect(await text('#deliveries-view .summary')).toContain(`not sent: ${notSent.reduce((sum, entry) => sum + (entry.count ?? 0), 0)}`);
		// The cycle's first delivery, the one the failure rule met.
		const eventId = log.find((entry) => entry.injected)?.webhook_event_id;
		expect(eventId).toMatch(/^whe_/);
		const firstEvent = page.locator(`#deliveries-view tr.event[data-event-id="${eventId}"]`);
		expect(await firstEvent.locator('li.attempt').allInnerTexts()).toEqual([
			expect.stringMatching(/^#1 · \+0 ms · 503 · [\d.]+ m?s · retry in 100 ms · injected$/),
			expect.stringMatching(/^#2 · \+[\d.]+ m?s · 200 · [\d.]+ m?s$/),
		]);
		expect(await firstEvent.locator('li.attempt').evaluateAll((items) => items.map((item) => item.className))).toEqual(['attempt retry_scheduled', 'attempt delivered']);
		await expect.poll(() => text('#failures-view'), SHOWN).toBe('No failure rule.');

		// Redeliver that event from its timeline; send an event of a chosen type.
		await firstEvent.locator('button', { hasText: 'Redeliver' }).click();
		await expect.poll(() => text('#status'), SHOWN).toBe(`Redelivery of ${eventId} queued (1).`);
		await expect.poll(() => firstEvent.locator('li.attempt').allInnerTexts(), SHOWN).toEqual([
			expect.stringMatching(/^#1 · \+0 ms · 503 /),
			expect.stringMatching(/^#2 · .* · 200 · /),
			expect.stringMatching(/^#1 · \+[\d.]+ m?s · 200 · [\d.]+ m?s · redelivery$/),
		]);
		await page.selectOption('#event-type', 'signal');
		await page.click('#send-event');
		await expect.poll(() => text('#status'), SHOWN).toMatch(/^signal: [1-9]\d* events\.$/);
		await expect.poll(() => text('#deliveries-view tr.event >> nth=0'), SHOWN).toMatch(/^signal\t/);

		// The clock: frozen, advanced, back on the wall clock.
		await expect.poll(() => text('#clock-view'), SHOWN).toContain('running');
		await page.click('#clock-freeze');
		await expect.poll(() => text('#clock-view'), SHOWN).toContain('frozen');
		const at = async () => Date.parse((await text('#clock-view .now')).trim().replace(' ', 'T'));
		const frozenAt = await at();
		await page.click('#clock-advance');
		await expect.poll(async () => (await at()) - frozenAt, SHOWN).toBe(1000);
		// A call the fault rule answers 503, one the stub answers, and one the service does (which spends budget, kept
		// spent while the clock is frozen: the pictures show it).
		expect((await api('/jobs?search=engineer')).status).toBe(503);
		expect((await api('/signals/changes?per_page=2')).status).toBe(200);
		expect((await api('/jobs/job_stub')).status).toBe(200);
		await expect.poll(rows, SHOWN).toEqual(expect.arrayContaining([
			'GET | /v2/jobs?search=engineer | acc_demo | 503 | ',
			expect.stringMatching(/^GET \| \/v2\/jobs\/job_stub \| .* \| 200 \| stub [0-9a-f]{8}$/),
		]));
		await page.locator('#deliveries .scroll').evaluate((list) => list.scrollTo(0, list.scrollHeight));
		await screenshot('overview');
		await screenshot('deliveries', '#deliveries');
		await page.fill('#filter-path', '/v2/jobs');
		await page.locator('#filter-path').dispatchEvent('change');
		await expect.poll(rows, SHOWN).toEqual([
			expect.stringMatching(/^GET \| \/v2\/jobs\/job_stub \| .* \| 200 \| stub [0-9a-f]{8}$/),
			'GET | /v2/jobs?search=engineer | acc_demo | 503 | ',
		]);
		await screenshot('requests', '#requests');
		await page.fill('#filter-path', '');
		await page.locator('#filter-path').dispatchEvent('change');
		await page.click('#clock-release');
		await expect.poll(() => text('#clock-view'), SHOWN).toContain('running');

		// Reset: back to the seed, every view empty again.
		await page.click('#reset');
		await expect.poll(() => text('#status'), SHOWN).toBe('Back to the seed.');
		await expect.poll(() => text('#requests-view'), SHOWN).toBe('No calls yet.');
		await expect.poll(() => text('#deliveries-view'), SHOWN).toMatch(/^No delivery yet/);
		expect(await text('#faults-view')).toBe('No fault rule.');
		expect(await text('#stubs-view')).toBe('No stub.');
		expect(await text('#accounts-view tr:has-text("acc_demo")')).toContain(`${RATE_LIMIT} / ${RATE_LIMIT} left, whole`);
		// Chromium logs each 4xx a fetch got (the bad filter's 400); anything else, a CSP violation above all, is a fault of the page.
		expect(problems.filter((problem) => !/^Failed to load resource: the server responded with a status of 400/.test(problem))).toEqual([]);
	});

	it('says "Not available" for a route the mock does not have (404), and shows the rest', BROWSER_TEST, async () => {
		// A mock without the clock route, as before it was added: the browser is answered 404 for it.
		const other = await browser.newPage();
		await other.route(`**${MOCK_CONTROL_PATHS.clock}`, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"status":404,"error":"Not Found","message":"No such endpoint"}' }));
		await other.goto(`${server.appUrl}${PAGE_PATH}`);
		await expect.poll(() => other.locator('#clock-view').innerText(), SHOWN).toBe(`Not available: GET ${MOCK_CONTROL_PATHS.clock} answered 404 (this version of the mock does not have it).`);
		expect(await other.locator('#clock-view').getAttribute('data-state')).toBe('unavailable');
		await expect.poll(() => other.locator('#accounts-view').innerText(), SHOWN).toContain('acc_demo');
		await other.close();
	});
});

describe('the page\'s URL, dates, narrow window and reads (a mock of its own, with a long journal)', () => {
	let mock: RunningMockServer;
	let view: Page;
	/** Every read the page made of the journal and the delivery log, as sent. */
	const reads: URL[] = [];
	const HISTORY = 300;
	const LONG_QUERY = 'search=senior+platform+engineer&locations=Amsterdam&categories=DevOps&industry_tags=Software';
	const viewProblems: string[] = [];
	const at = (path: string) => `${mock.appUrl}${PAGE_PATH}${path}`;
	/** A delivery log entry of this test's own (the times are what matters). */
	const attempt = (id: string, startedAt: number) => ({
		webhook_event_id: id, webhook_id: 'wh_1', account_id: 'acc_demo', event_type: 'job_created' as const, url: 'http://127.0.0.1:9/hook',
		attempt: 1, started_at: startedAt, duration_ms: 12, status: 200, error: null, outcome: 'delivered' as const, origin: 'cycle' as const,
	});
	const cells = () => view.locator('#requests-view tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => (td as HTMLElement).innerText)));

	beforeAll(async () => {
		mock = await startMockServer({ ...SMALL, port: 0, rateLimit: 0 });
		const call = (path: string) => fetch(`${mock.apiUrl}${path}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
		// Before the clock jump: today's calls, the journal longer than the page shows.
		for (let i = 0; i < HISTORY; i += 50) {
			const statuses = await Promise.all(Array.from({ length: 50 }, (_, j) => call(`/collections?page_note=${i + j}`).then((r) => r.status)));
			expect(statuses).toEqual(statuses.map(() => 200));
		}
		expect((await call('/sources/id/src_none')).status).toBe(404);
		view = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
		view.on('console', (message) => {
			if (message.type() === 'error') viewProblems.push(message.text());
		});
		view.on('pageerror', (error) => viewProblems.push(error.message));
		view.on('request', (request) => {
			const url = new URL(request.url());
			if (url.pathname === MOCK_CONTROL_PATHS.requests || url.pathname === MOCK_CONTROL_PATHS.deliveries) reads.push(url);
		});
	}, 120_000);
	afterAll(async () => {
		await view?.close();
		await mock?.close();
	});

	it('opens the view a URL names, with its filters; the page\'s changes go into the URL, back and forward go through them', BROWSER_TEST, async () => {
		await view.goto(at('?view=requests&status=4xx'));
		await expect.poll(cells, SHOWN).toEqual([[expect.any(String), 'GET', '/v2/sources/id/src_none', 'acc_demo', '404', '']]);
		expect(await view.locator('main > section:visible').evaluateAll((sections) => sections.map((section) => section.id))).toEqual(['requests']);
		expect(await view.locator('#filter-status').inputValue()).toBe('4xx');
		expect(await view.locator('#views button[aria-pressed="true"]').innerText()).toBe('Requests');

		// A filter changed on the page: the URL says it; the view its button chose too.
		await view.selectOption('#filter-status', '2xx');
		await expect.poll(() => view.url(), SHOWN).toBe(at('?view=requests&status=2xx'));
		await expect.poll(async () => (await cells()).length, SHOWN).toBe(200);
		await view.click('#views button[data-view="all"]');
		await expect.poll(() => view.url(), SHOWN).toBe(at('?status=2xx'));
		expect(await view.locator('main > section:visible').count()).toBe(5);

		// Back: the requests view again, then its 4xx filter; forward: 2xx.
		await view.goBack();
		await expect.poll(() => view.url(), SHOWN).toBe(at('?view=requests&status=2xx'));
		expect(await view.locator('main > section:visible').count()).toBe(1);
		await view.goBack();
		await expect.poll(() => view.url(), SHOWN).toBe(at('?view=requests&status=4xx'));
		expect(await view.locator('#filter-status').inputValue()).toBe('4xx');
		await expect.poll(cells, SHOWN).toEqual([[expect.any(String), 'GET', '/v2/sources/id/src_none', 'acc_demo', '404', '']]);
		await view.goForward();
		await expect.poll(async () => (await cells()).length, SHOWN).toBe(200);
		expect(await view.locator('#filter-status').inputValue()).toBe('2xx');

		// A URL with a value the page does not offer: sent as it is, and the journal's 400 shown; an unknown view shows all.
		await view.goto(at('?view=nowhere&status=6xx'));
		await expect.poll(() => view.locator('#requests-view').innerText(), SHOWN).toContain(`GET ${MOCK_CONTROL_PATHS.requests} answered 400: Invalid filter "status"`);
		expect(await view.locator('#status').innerText()).toBe('No view "nowhere" (views: all, accounts, clock, deliveries, requests, rules): showing all.');
		expect(await view.locator('main > section:visible').count()).toBe(5);
	});

	it('reads the journal and the delivery log with a limit, the status filter sent to the journal: a page on a long journal gets the rows it shows and one more', BROWSER_TEST, async () => {
		reads.length = 0;
		await view.goto(at('?status=2xx'));
		await expect.poll(async () => (await cells()).length, SHOWN).toBe(200);
		await expect.poll(() => view.locator('#requests-count').innerText(), SHOWN).toBe('the newest 200 matching shown, older ones not');
		const journal = reads.filter((url) => url.pathname === MOCK_CONTROL_PATHS.requests);
		const log = reads.filter((url) => url.pathname === MOCK_CONTROL_PATHS.deliveries);
		expect(journal.length).toBeGreaterThan(0);
		expect(log.length).toBeGreaterThan(0);
		expect(journal.map((url) => [url.searchParams.get('limit'), url.searchParams.get('status')])).toEqual(journal.map(() => ['201', '2xx']));
		expect(log.map((url) => url.search)).toEqual(log.map(() => '?limit=500'));
		// What such a read answers: 201 of the 301 calls.
		const answer = (await fetch(journal[0]).then((r) => r.json())) as { data: unknown[] };
		expect(answer.data).toHaveLength(201);
		expect(mock.service.requests().data).toHaveLength(HISTORY + 1);
	});

	it('after a clock jump, shows the date of every time that is not on the mock clock\'s day, journal and deliveries alike', BROWSER_TEST, async () => {
		const before = Date.now();
		expect((await fetch(`${mock.appUrl}${MOCK_CONTROL_PATHS.clock}`, { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ now: '2027-01-01T09:00:03Z', frozen: true }) })).status).toBe(200);
		expect((await fetch(`${mock.apiUrl}/jobs/job_none`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } })).status).toBe(404);
		mock.service.webhooks.engine.restoreLog([attempt('whe_today', before), attempt('whe_2027', Date.parse('2027-01-01T09:00:03.250Z'))]);
		await view.goto(at(''));
		const today = new Date(before).toISOString().slice(0, 10);
		// Newest first: the call after the jump at its time alone, the ones before with their date.
		await expect.poll(async () => (await cells()).slice(0, 2).map((row) => row[0]), SHOWN).toEqual(['09:00:03.000', expect.stringMatching(new RegExp(`^${today} \\d\\d:\\d\\d:\\d\\d\\.\\d{3}$`))]);
		const times = () => view.locator('#deliveries-view tr.event td:nth-child(2)').allInnerTexts();
		await expect.poll(times, SHOWN).toEqual(['09:00:03.250', expect.stringMatching(new RegExp(`^${today} `))]);
		// Back on the wall clock (today's day): the 2027 times take their date, today's lose it.
		expect((await fetch(`${mock.appUrl}${MOCK_CONTROL_PATHS.clock}`, { method: 'DELETE', headers: JSON_TYPE })).status).toBe(204);
		await expect.poll(times, SHOWN).toEqual(['2027-01-01 09:00:03.250', expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3}$/)]);
	});

	it('holds at 760 px: no cell overflows or breaks a word, the page does not scroll sideways (wide tables scroll in their box)', BROWSER_TEST, async () => {
		// Long contents: a stub, a fault rule, a receiver failure rule, a call with a long query and warnings.
		const stub = { request: { method: 'GET', urlPathPattern: '/v2/jobs/job_stubbed_[a-z]+_with_a_long_name' }, response: { status: 200, jsonBody: {} }, name: 'A stubbed job with a long descriptive name' };
		expect((await fetch(`${mock.appUrl}/__admin/mappings`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(stub) })).status).toBe(201);
		expect((await fetch(`${mock.appUrl}${MOCK_CONTROL_PATHS.faults}`, { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ faults: [{ path: '/v2/signals/problems', method: 'GET', status: 503, latency_ms: 250, rate: 0.5 }] }) })).status).toBe(200);
		expect((await fetch(`${mock.apiUrl}/jobs?${LONG_QUERY}&serach=typo&another_unknown_parameter=1`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } })).status).toBe(200);
		mock.service.webhooks.engine.restoreLog([attempt('whe_today', Date.now()), attempt('whe_2027', Date.parse('2027-01-01T09:00:03.250Z'))]);
		await view.setViewportSize({ width: 760, height: 1000 });
		await view.goto(at(''));
		await expect.poll(() => view.locator('#requests-view tbody tr >> nth=0').innerText(), SHOWN).toContain('unknown query parameters');
		await expect.poll(() => view.locator('#stubs-view').innerText(), SHOWN).toContain('A stubbed job');
		await expect.poll(() => view.locator('#deliveries-view tr.event').count(), SHOWN).toBe(2);
		await screenshot760();
		const measured = await view.evaluate(() => {
			const problems: string[] = [];
			const cellsSeen = [...document.querySelectorAll('td')].filter((td) => td.getClientRects().length > 0);
			for (const td of cellsSeen) {
				const what = `${td.closest('.view')?.id} "${td.innerText.slice(0, 60)}"`;
				if (td.scrollWidth > td.clientWidth + 1) problems.push(`${what} overflows: ${td.scrollWidth} > ${td.clientWidth}`);
				const style = getComputedStyle(td);
				if (style.overflowWrap === 'anywhere' || style.wordBreak === 'break-all') problems.push(`${what} may break words (${style.overflowWrap}, ${style.wordBreak})`);
				// Each word of its text on one line: a word broken across lines has boxes at two heights.
				const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
				for (let node = walker.nextNode(); node; node = walker.nextNode()) {
					for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
						const range = document.createRange();
						range.setStart(node, word.index);
						range.setEnd(node, word.index + word[0].length);
						const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
						if (tops.size > 1) problems.push(`${what}: "${word[0]}" broken over ${tops.size} lines`);
					}
				}
			}
			return { problems, cells: cellsSeen.length, pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth };
		});
		expect(measured.problems).toEqual([]);
		expect(measured.cells).toBeGreaterThan(30);
		expect(measured.pageWidth).toBeLessThanOrEqual(measured.viewport);
		expect(measured.viewport).toBe(760);
		expect(viewProblems.filter((problem) => !/^Failed to load resource: the server responded with a status of 400/.test(problem))).toEqual([]);
	});

	async function screenshot760(): Promise<void> {
		if (!screenshots) return;
		mkdirSync(screenshots, { recursive: true });
		await view.screenshot({ path: join(screenshots, 'mock-page-760.png'), fullPage: true });
	}
});
