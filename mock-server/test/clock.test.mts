// The mock clock: MockClock itself, the dates and waits that follow it in the service (records, signals, settings,
// subscribers, envelopes, the delivery log, the request journal, the batch spacing, retries, the rate-limit window, timed cycles), and
// GET/PUT/DELETE /__mock/clock over HTTP (its bodies, the cross-site rule, the local-only rule).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import {
	LIMITS, MOCK_CONTROL_PATHS, jobSchema, signalSchema, sourceSchema, webhookEventSchema, webhookSettingSchema, WEBHOOK_EVENT_TYPES,
} from '../src/base/contract.mts';
import { MAX_CLOCK_MS, MockClock } from '../src/base/clock.mts';
import { MAX_ADVANCE_MS } from '../src/clock/clock-body.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { createMockService } from '../src/service.mts';
import { APP_URL, call, DEMO_TOKEN, expectApiError, ok, SMALL, useMock } from './harness.mts';
import { rawRequest } from './raw-http.mts';
import { pause, startReceiver, until, type Receiver } from './receiver.mts';

const T = Date.parse('2027-03-01T12:00:00Z');
const T_SECONDS = T / 1000;
/** SMALL runs at time scale 1: on a frozen clock the spec's seconds cost no real time. */
const SMALL_TIME_SCALE = SMALL.timeScale ?? 1;

describe('MockClock', () => {
	it('freezes at a date, and advance moves the date and time passing by the same amount', () => {
		const clock = new MockClock();
		clock.freeze('2027-03-01T12:00:00Z');
		expect([clock.now(), clock.nowSeconds(), clock.isFrozen()]).toEqual([T, T_SECONDS, true]);
		const elapsed = clock.elapsed();
		clock.advance(1500);
		expect([clock.now() - T, clock.elapsed() - elapsed]).toEqual([1500, 1500]);
		expect(clock.state()).toMatchObject({ now: '2027-03-01T12:00:01.500Z', now_ms: T + 1500, frozen: true, timers: 0, next_timer_in_ms: null });
		clock.freeze(new Date(T));
		clock.freeze(T + 7);
		expect(clock.now()).toBe(T + 7);
	});

	it('frozen, a timer goes only when an advance reaches it (even one due now), in due order, with the clock at its due time', () => {
		const clock = new MockClock();
		clock.freeze(T);
		const ran: Array<[string, number]> = [];
		const mark = (name: string) => () => ran.push([name, clock.now() - T]);
		clock.setTimeout(mark('b'), 2000);
		clock.setTimeout(mark('now'), 0);
		clock.setTimeout(mark('a'), 1000);
		// Set by a timer during the advance, due inside it: it goes in the same advance.
		clock.setTimeout(() => {
			mark('c')();
			clock.setTimeout(mark('d'), 500);
		}, 1000);
		const cleared = clock.setTimeout(mark('cleared'), 100);
		clock.clearTimeout(cleared);
		expect(clock.state()).toMatchObject({ timers: 4, next_timer_in_ms: 0 });
		expect(ran).toEqual([]);
		clock.advance(0);
		expect(ran).toEqual([['now', 0]]);
		clock.advance(1999);
		expect(ran).toEqual([['now', 0], ['a', 1000], ['c', 1000], ['d', 1500]]);
		expect(clock.state()).toMatchObject({ timers: 1, next_timer_in_ms: 1 });
		clock.advance(1);
		expect(ran.at(-1)).toEqual(['b', 2000]);
		expect(clock.now()).toBe(T + 2000);
	});

	it('setting the date is a jump, not time passing: timers keep the time they had left', () => {
		const clock = new MockClock();
		clock.freeze(T);
		let ran = 0;
		clock.setTimeout(() => ran++, 1000);
		clock.freeze(T + 365 * 86_400_000);
		clock.freeze(T - 365 * 86_400_000);
		expect(ran).toBe(0);
		clock.advance(999);
		expect(ran).toBe(0);
		clock.advance(1);
		expect(ran).toBe(1);
	});

	it('release goes back to the wall clock, where a waiting timer goes after the time it had left', async () => {
		const clock = new MockClock();
		clock.freeze(T);
		const went = new Promise<number>((resolve) => clock.setTimeout(() => resolve(clock.now()), 30));
		clock.advance(10);
		clock.release();
		expect(clock.isFrozen()).toBe(false);
		expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1000);
		expect(Math.abs((await went) - Date.now())).toBeLessThan(1000);
	});

	it('running, advance moves the date on and sends what falls due at once', async () => {
		const clock = new MockClock();
		const went = new Promise<void>((resolve) => clock.setTimeout(resolve, 3_600_000));
		clock.advance(3_600_000);
		await went;
		expect(clock.now() - Date.now()).toBeGreaterThan(3_600_000 - 1000);
		expect(clock.isFrozen()).toBe(false);
	});

	it('refuses what is not a time: RangeError', () => {
		const clock = new MockClock();
		for (const bad of ['yesterday', -1, Number.NaN, 1.5, MAX_CLOCK_MS + 1]) expect(() => clock.freeze(bad), String(bad)).toThrow(RangeError);
		for (const bad of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => clock.advance(bad), String(bad)).toThrow(RangeError);
		clock.freeze(MAX_CLOCK_MS - 10);
		expect(() => clock.advance(11)).toThrow(/9999-12-31/);
		expect(clock.now()).toBe(MAX_CLOCK_MS - 10);
	});
});

describe('the service on a frozen clock (in-process)', () => {
	const mock = useMock(SMALL, { onUnhandledFrame: 'bypass' });
	const receivers: Receiver[] = [];
	afterAll(async () => {
		await Promise.all(receivers.map((receiver) => receiver.close()));
	});
	const control = (path: string, method = 'GET', body?: unknown) => call(path, { base: APP_URL, token: null, method, body });
	const eventsSchema = z.object({ events: z.array(z.object({ account_id: z.string(), event_type: z.string(), event_data: z.record(z.string(), z.unknown()) })) });

	/** A receiver that keeps each envelope and answers the status `statusFor` picks (attempt number, from 1). */
	async function receiver(statusFor: (attempt: number) => number = () => 200) {
		const bodies: Array<z.infer<typeof webhookEventSchema>> = [];
		const started = await startReceiver((_request, body, response) => {
			bodies.push(webhookEventSchema.parse(JSON.parse(body.toString())));
			response.statusCode = statusFor(bodies.length);
			response.end();
		});
		receivers.push(started);
		const setting = await call('/api/webhooks', { base: APP_URL, method: 'POST', body: { url: started.url, event_types: WEBHOOK_EVENT_TYPES } });
		expect(setting.status).toBe(201);
		return { bodies, setting: webhookSettingSchema.parse(setting.json) };
	}

	it('dates what it makes at the clock: records, signals, job board counts, webhook settings, subscribers, envelopes and the log', async () => {
		const { clock } = mock.service;
		clock.freeze(T);
		const { bodies, setting } = await receiver();
		expect(setting.created_at).toBe(T_SECONDS);
		const answer = await control(MOCK_CONTROL_PATHS.process, 'POST', { created: 1, updated: 1, deleted: 1, signals: 1 });
		const events = eventsSchema.parse(answer.json).events.filter((e) => e.account_id === 'acc_demo');
		const of = (type: string) => events.find((e) => e.event_type === type)?.event_data;
		const created = jobSchema.parse(of('job_created'));
		expect([created.created_at, created.updated_at]).toEqual([T_SECONDS, T_SECONDS]);
		expect(jobSchema.parse(of('job_updated')).updated_at).toBe(T_SECONDS);
		expect(jobSchema.extend({ deleted_at: z.number() }).parse(of('job_deleted')).deleted_at).toBe(T_SECONDS);
		const signal = signalSchema.parse(of('signal'));
		expect([signal.created_at, signal.signal_recent_at, signal.date]).toEqual([T_SECONDS, T_SECONDS, '2027-03-01']);
		const source = await ok(sourceSchema, `/sources/id/${created.source_id}`);
		expect(source.count_jobbard_jobs_success_at).toBe(T_SECONDS);

		const upload = await call('/api/subscribers/upload', { base: APP_URL, token: null, method: 'POST', body: { email_addresses: 'clock@example.com', access_token: DEMO_TOKEN } });
		expect(upload.status).toBe(200);
		const subscribers = z.object({ data: z.array(z.object({ email: z.string(), created_at: z.number() })) }).parse((await control('/__mock/accounts/acc_demo/subscribers')).json);
		expect(subscribers.data.find((s) => s.email === 'clock@example.com')?.created_at).toBe(T_SECONDS);

		// Frozen, even the first delivery (due now) waits for an advance.
		await pause(100);
		expect(bodies).toEqual([]);
		clock.advance(0);
		await until(() => bodies.length === 1, 'the first delivery');
		expect([bodies[0].created_at, bodies[0].updated_at]).toEqual([T_SECONDS, T_SECONDS]);
		await until(() => mock.service.webhooks.engine.deliveries().length === 1, 'its log entry');
		expect(mock.service.webhooks.engine.deliveries()[0]).toMatchObject({ started_at: T, outcome: 'delivered', origin: 'cycle' });

		// Each change is strictly later than the last (new records sort newest): a second cycle in the same frozen second is 1 s on.
		const again = eventsSchema.parse((await control(MOCK_CONTROL_PATHS.process, 'POST', { created: 1, updated: 0, deleted: 0, signals: 0 })).json);
		expect(jobSchema.parse(again.events[0].event_data).created_at).toBe(T_SECONDS + 1);
	});

	it("dates the request journal at the clock: its time, its since filter and WireMock's loggedDate, a clock set back included", async () => {
		const { clock } = mock.service;
		const DAY = 86_400_000;
		clock.freeze(T);
		expect((await call('/collections')).status).toBe(200);
		// Set back a day: the later call is dated earlier.
		clock.freeze(T - DAY);
		expect((await call('/collections?later=1')).status).toBe(200);
		const journal = mock.service.requests({ path: '/v2/collections' });
		expect(journal.data.map((entry) => [entry.time, entry.time_ms])).toEqual([[new Date(T).toISOString(), T], [new Date(T - DAY).toISOString(), T - DAY]]);
		expect(mock.service.requests({ path: '/v2/collections', since: T }).data.map((entry) => entry.time_ms)).toEqual([T]);
		expect(mock.service.requests.find({ method: 'GET', urlPath: '/v2/collections' }).map((request) => request.loggedDate)).toEqual([T, T - DAY]);
		// WireMock's serve events, newest first: one dated before `since` does not hide an older call dated after it.
		const events = await call(`/__admin/requests?since=${new Date(T).toISOString()}`, { base: APP_URL, token: null });
		expect(z.object({ requests: z.array(z.object({ request: z.object({ loggedDate: z.number() }) }).passthrough()) }).parse(events.json).requests.map((event) => event.request.loggedDate)).toEqual([T]);
	});

	it('spaces a batch and waits out retries in clock time: advancing past a due time sends it', async () => {
		const { clock } = mock.service;
		clock.freeze(T);
		// Fails the first attempt: its retry is due 1 s (scaled) after it on the clock.
		const { bodies } = await receiver((attempt) => (attempt === 1 ? 500 : 200));
		await control(MOCK_CONTROL_PATHS.process, 'POST', { created: 2, updated: 0, deleted: 0, signals: 0 });
		const log = () => mock.service.webhooks.engine.deliveries();
		const spacing = LIMITS.webhookBatchSpacingMs * SMALL_TIME_SCALE;
		const backoff = LIMITS.webhookFirstBackoffMs * SMALL_TIME_SCALE;
		clock.advance(0);
		await until(() => log().length === 1, 'the first attempt');
		expect(log()[0]).toMatchObject({ attempt: 1, status: 500, outcome: 'retry_scheduled', retry_in_ms: backoff, started_at: T });
		// Real time passing does nothing while frozen: the batch's second delivery and the retry wait for the clock.
		await pause(200);
		expect(bodies).toHaveLength(1);
		expect(clock.state()).toMatchObject({ timers: 2, next_timer_in_ms: Math.min(spacing, backoff) });
		clock.advance(Math.min(spacing, backoff) - 1);
		await pause(200);
		expect(log()).toHaveLength(1);
		clock.advance(1);
		await until(() => log().length === 3, 'the second delivery and the retry');
		const [first] = log();
		expect(log().find((entry) => entry.webhook_event_id !== first.webhook_event_id)).toMatchObject({ attempt: 1, started_at: T + spacing, outcome: 'delivered' });
		expect(log().find((entry) => entry.attempt === 2)).toMatchObject({ webhook_event_id: first.webhook_event_id, started_at: T + backoff, outcome: 'delivered' });
		expect(bodies.filter((body) => body.webhook_event_id === first.webhook_event_id)).toHaveLength(2);
	});

	it('POST /__mock/reset puts the clock back on the wall clock', async () => {
		mock.service.clock.freeze(T);
		expect((await control(MOCK_CONTROL_PATHS.reset, 'POST')).status).toBe(200);
		expect(mock.service.clock.isFrozen()).toBe(false);
		expect(Math.abs(mock.service.clock.now() - Date.now())).toBeLessThan(1000);
	});
});

describe('over HTTP: /__mock/clock, the rate-limit window and timed cycles', () => {
	let server: RunningMockServer;
	let limited: RunningMockServer;
	beforeAll(async () => {
		server = await startMockServer({ ...SMALL, port: 0 });
		limited = await startMockServer({ ...SMALL, port: 0, rateLimit: 2 });
	});
	afterAll(async () => {
		await server?.close();
		await limited?.close();
	});
	beforeEach(async () => {
		await server.service.reset();
		await limited.service.reset();
	});
	const clockAt = (on: RunningMockServer, method = 'GET', body?: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
		fetch(`${on.appUrl}${MOCK_CONTROL_PATHS.clock}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
	const stateSchema = z.strictObject({
		now: z.string(), now_ms: z.number(), frozen: z.boolean(), offset_ms: z.number(), timers: z.number(), next_timer_in_ms: z.number().nullable(),
	});
	const read = async (answer: Response) => {
		expect(answer.status).toBe(200);
		return stateSchema.parse(await answer.json());
	};

	it('GET reads it, PUT freezes, sets and advances it, DELETE goes back to the wall clock', async () => {
		const wall = await read(await clockAt(server));
		expect(wall.frozen).toBe(false);
		expect(Math.abs(wall.now_ms - Date.now())).toBeLessThan(1000);

		expect(await read(await clockAt(server, 'PUT', { now: '2027-03-01T12:00:00Z' }))).toMatchObject({ now: '2027-03-01T12:00:00.000Z', now_ms: T, frozen: true });
		expect(await read(await clockAt(server, 'PUT', { advance_ms: 1500 }))).toMatchObject({ now: '2027-03-01T12:00:01.500Z', frozen: true });
		// Frozen means frozen: real time passing does not move it.
		await pause(50);
		expect((await read(await clockAt(server))).now_ms).toBe(T + 1500);
		expect(await read(await clockAt(server, 'PUT', {}))).toMatchObject({ now_ms: T + 1500, frozen: true });
		expect(await read(await clockAt(server, 'PUT', { now: T, advance_ms: 60_000 }))).toMatchObject({ now: '2027-03-01T12:01:00.000Z' });
		expect(await read(await clockAt(server, 'PUT', { now: '2027-03-01T13:00:00+01:00' }))).toMatchObject({ now_ms: T });
		expect(await read(await clockAt(server, 'PUT', { now: '2027-03-01' }))).toMatchObject({ now: '2027-03-01T00:00:00.000Z' });

		// Set and running: it goes on from there.
		const running = await read(await clockAt(server, 'PUT', { now: '2030-01-01T00:00:00Z', frozen: false }));
		expect(running.frozen).toBe(false);
		await pause(50);
		expect((await read(await clockAt(server))).now_ms).toBeGreaterThan(Date.parse('2030-01-01T00:00:00Z'));

		expect((await clockAt(server, 'DELETE')).status).toBe(204);
		const back = await read(await clockAt(server));
		expect(back.frozen).toBe(false);
		expect(Math.abs(back.offset_ms)).toBeLessThan(1000);
	});

	it.each([
		['"now" is not JSON', '{"now":', /must be JSON/],
		['an unknown field', { frozen_at: '2027-01-01T00:00:00Z' }, /Unrecognized key/],
		['a day that does not exist', { now: '2027-02-30' }, /now: an ISO 8601 date/],
		['a time without an offset', { now: '2027-03-01T12:00:00' }, /now: an ISO 8601 date/],
		['words', { now: 'tomorrow' }, /now: an ISO 8601 date/],
		['a date before 1970', { now: -1 }, /now: an ISO 8601 date/],
		['a date past 9999', { now: MAX_CLOCK_MS + 1 }, /now: an ISO 8601 date/],
		['a fraction of a millisecond', { now: 1.5 }, /now: /],
		['a negative advance', { advance_ms: -1 }, /advance_ms: Too small/],
		['an advance over a year', { advance_ms: MAX_ADVANCE_MS + 1 }, /advance_ms: Too big/],
		['an advance past 9999', { now: MAX_CLOCK_MS - 10, advance_ms: 11 }, /advance_ms: it would take the clock past 9999/],
		['frozen as a string', { frozen: 'yes' }, /frozen: /],
		['an array', [], /body: /],
	])('PUT answers 400 for %s, and the clock stays as it was', async (_name, body, message) => {
		const before = await read(await clockAt(server, 'PUT', { now: T }));
		const answer = await clockAt(server, 'PUT', body);
		expectApiError({ status: answer.status, headers: answer.headers, json: await answer.json() }, 400, message);
		expect(await read(await clockAt(server))).toEqual({ ...before, offset_ms: expect.any(Number) as number });
	});

	it('PUT and DELETE follow the control routes\' cross-site rule (403 without a JSON type or X-Mock-Control); the local-only rule holds', async () => {
		await read(await clockAt(server, 'PUT', { now: T }));
		for (const method of ['PUT', 'DELETE']) {
			const refused = await clockAt(server, method, '{"now": 0}', { 'content-type': 'text/plain' });
			expect(refused.status).toBe(403);
			expect(((await refused.json()) as { message: string }).message).toMatch(/X-Mock-Control/);
		}
		expect((await read(await clockAt(server))).now_ms).toBe(T);
		expect((await clockAt(server, 'DELETE', undefined, { 'x-mock-control': '1' })).status).toBe(204);
		const port = Number(new URL(server.appUrl).port);
		const ask = (path: string, host: string) => rawRequest(port, `GET ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`);
		expect((await ask(MOCK_CONTROL_PATHS.clock, 'attacker.example')).status).toBe(403);
		expect((await ask(`/x${MOCK_CONTROL_PATHS.clock}`, `127.0.0.1:${port}`)).status).toBe(404);
		expect((await ask(MOCK_CONTROL_PATHS.clock, `127.0.0.1:${port}`)).status).toBe(200);
	});

	it('the rate-limit window: frozen, a spent budget comes back only when the clock is advanced past the window', async () => {
		await read(await clockAt(limited, 'PUT', { now: T }));
		const signals = () => fetch(`${limited.apiUrl}/signals/problems`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
		expect([(await signals()).status, (await signals()).status]).toEqual([200, 200]);
		const refused = await signals();
		expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '60']);
		await read(await clockAt(limited, 'PUT', { advance_ms: 59_999 }));
		expect((await signals()).status).toBe(429);
		await read(await clockAt(limited, 'PUT', { advance_ms: 1 }));
		const again = await signals();
		expect([again.status, again.headers.get('x-ratelimit-remaining')]).toEqual([200, '1']);
	});

	it('timed cycles (--cycle-interval) wait for the clock: frozen, a cycle runs once it is advanced by the interval', async () => {
		const service = await createMockService({ ...SMALL, cycleInterval: 3600 });
		try {
			service.clock.freeze(T);
			const cycled = () => [...service.store.jobs.values()].some((stored) => stored.job.created_at >= T_SECONDS);
			// The timer was set when the service was made, a moment before the freeze.
			const { timers, next_timer_in_ms: left } = service.clock.state();
			expect(timers).toBe(1);
			expect(left).toBeGreaterThan(3_500_000);
			service.clock.advance((left as number) - 1);
			await pause(100);
			expect(cycled()).toBe(false);
			service.clock.advance(1);
			await until(cycled, 'a timed cycle');
			// Its jobs are dated at the clock: the interval on from the frozen time.
			const dates = [...service.store.jobs.values()].map((stored) => stored.job.created_at).filter((at) => at >= T_SECONDS);
			expect(Math.min(...dates)).toBeGreaterThanOrEqual(T_SECONDS + 3500);
			expect(Math.max(...dates)).toBeLessThanOrEqual(T_SECONDS + 3600);
		} finally {
			service.close();
		}
	});
});
