// Testing a webhook receiver the hard ways, against a real HTTP receiver: a redelivery of a given event, copies of one,
// a batch out of order, a receiver's next attempts failed then delivered (the retry schedule), each in the delivery log
// with its origin. Over HTTP (the control routes, their bodies, the cross-site rule) and in-process (the mock's methods).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { LIMITS, MOCK_CONTROL_PATHS, webhookEventSchema, webhookSettingSchema, WEBHOOK_EVENT_TYPES } from '../src/base/contract.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { createMockService, type MockService } from '../src/service.mts';
import { DeliveryKnobError } from '../src/webhooks/delivery.mts';
import { MAX_KEPT_ENVELOPES } from '../src/webhooks/kept-envelopes.mts';
import type { DeliveryLogEntry } from '../src/webhooks/delivery-engine.mts';
import { DEMO_TOKEN, SECOND_TOKEN, SMALL } from './harness.mts';
import { pause, startReceiver, until, type Receiver } from './receiver.mts';

// 1 s of the spec is 50 ms here: spacing 50 ms, retries after 50, 100, 200 ms, timeout 250 ms.
const TIME_SCALE = 0.05;
const T = Date.parse('2027-03-01T12:00:00Z');
const JSON_HEADERS = { 'content-type': 'application/json' };

const receivers: Receiver[] = [];
afterAll(async () => {
	await Promise.all(receivers.map((receiver) => receiver.close()));
});

/** A receiver that keeps each body as sent (bytes as text) and answers 200. */
async function keepingReceiver() {
	const raw: string[] = [];
	const started = await startReceiver((_request, body, response) => {
		raw.push(body.toString());
		response.end();
	});
	receivers.push(started);
	return { url: started.url, raw, ids: () => raw.map((body) => webhookEventSchema.parse(JSON.parse(body)).webhook_event_id) };
}

describe('over HTTP (the standalone server)', () => {
	let server: RunningMockServer;
	beforeAll(async () => {
		server = await startMockServer({ ...SMALL, port: 0, timeScale: TIME_SCALE });
	});
	afterAll(async () => {
		await server?.close();
	});
	beforeEach(async () => {
		await server.service.reset();
	});

	const send = async (path: string, method = 'GET', body?: unknown, headers: Record<string, string> = JSON_HEADERS) => {
		const response = await fetch(`${server.appUrl}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
		const text = await response.text();
		return { status: response.status, json: (text === '' ? undefined : JSON.parse(text)) as unknown };
	};
	const expectError = (answer: { status: number; json: unknown }, status: number, message: RegExp) => {
		expect(answer.status, JSON.stringify(answer.json)).toBe(status);
		expect((answer.json as { message: string }).message).toMatch(message);
	};
	const queuedSchema = z.strictObject({
		queued: z.array(z.strictObject({
			webhook_event_id: z.string(), webhook_id: z.string(), account_id: z.string(), url: z.string(),
			origin: z.enum(['redelivery', 'copy', 'reordered']), moved: z.boolean().optional(),
		})),
	});
	const queued = (answer: { status: number; json: unknown }) => {
		expect(answer.status, JSON.stringify(answer.json)).toBe(202);
		return queuedSchema.parse(answer.json).queued;
	};
	const log = async (): Promise<DeliveryLogEntry[]> => ((await send(MOCK_CONTROL_PATHS.deliveries)).json as { data: DeliveryLogEntry[] }).data;
	async function webhook(url: string, token = DEMO_TOKEN) {
		const response = await fetch(`${server.appUrl}/api/webhooks`, {
			method: 'POST',
			headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
			body: JSON.stringify({ url, event_types: WEBHOOK_EVENT_TYPES }),
		});
		expect(response.status).toBe(201);
		return webhookSettingSchema.parse(await response.json());
	}
	/** One job_created event to the demo account's webhooks, delivered: its webhook_event_id. */
	async function deliveredEvent(receiver: Awaited<ReturnType<typeof keepingReceiver>>): Promise<string> {
		expect((await send(MOCK_CONTROL_PATHS.events, 'POST', { event_type: 'job_created' })).status).toBe(200);
		await until(() => receiver.raw.length === 1, 'the event');
		await until(async () => (await log()).length === 1, 'its log entry');
		return receiver.ids()[0];
	}
	const advance = (ms: number) => send(MOCK_CONTROL_PATHS.clock, 'PUT', { advance_ms: ms });

	it('redeliver: the same envelope, byte for byte, to the same receiver, logged as a redelivery', async () => {
		const receiver = await keepingReceiver();
		const setting = await webhook(receiver.url);
		const id = await deliveredEvent(receiver);
		expect(queued(await send(MOCK_CONTROL_PATHS.redeliver, 'POST', { webhook_event_id: id }))).toEqual([
			{ webhook_event_id: id, webhook_id: setting.webhook_id, account_id: 'acc_demo', url: receiver.url, origin: 'redelivery' },
		]);
		await until(() => receiver.raw.length === 2, 'the redelivery');
		expect(receiver.raw[1]).toBe(receiver.raw[0]);
		await until(async () => (await log()).length === 2, 'its log entry');
		expect((await log()).map((entry) => [entry.webhook_event_id, entry.origin, entry.outcome])).toEqual([
			[id, 'cycle', 'delivered'],
			[id, 'redelivery', 'delivered'],
		]);
	});

	it('redeliver answers 404 for an envelope it does not keep (unknown, or gone with a reset) and 400 for a bad body', async () => {
		const receiver = await keepingReceiver();
		await webhook(receiver.url);
		const id = await deliveredEvent(receiver);
		await send(MOCK_CONTROL_PATHS.reset, 'POST');
		for (const unknown of [id, 'whe_nope']) {
			expectError(await send(MOCK_CONTROL_PATHS.redeliver, 'POST', { webhook_event_id: unknown }), 404, new RegExp(`"${unknown}".*last ${MAX_KEPT_ENVELOPES} envelopes`));
		}
		for (const [body, message] of [
			['{"webhook_event_id":', /must be JSON/],
			[{}, /webhook_event_id: /],
			[{ webhook_event_id: '' }, /webhook_event_id: Too small/],
			[{ webhook_event_id: 7 }, /webhook_event_id: /],
			[{ webhook_event_id: 'x', copies: 2 }, /Unrecognized key/],
		] as const) {
			expectError(await send(MOCK_CONTROL_PATHS.redeliver, 'POST', body), 400, message);
		}
	});

	it('copies: N more deliveries of one envelope, spaced like a batch or all at once, logged as copies', async () => {
		const receiver = await keepingReceiver();
		await webhook(receiver.url);
		// On a frozen clock the log's times are exact: spaced copies one spacing apart, at-once copies together.
		await send(MOCK_CONTROL_PATHS.clock, 'PUT', { now: T });
		expect((await send(MOCK_CONTROL_PATHS.events, 'POST', { event_type: 'job_created' })).status).toBe(200);
		await advance(0);
		await until(() => receiver.raw.length === 1, 'the event');
		const [id] = receiver.ids();
		const spaced = queued(await send(MOCK_CONTROL_PATHS.copies, 'POST', { webhook_event_id: id, copies: 3 }));
		expect(spaced.map((entry) => [entry.webhook_event_id, entry.origin])).toEqual([[id, 'copy'], [id, 'copy'], [id, 'copy']]);
		const spacing = LIMITS.webhookBatchSpacingMs * TIME_SCALE;
		for (let sent = 1; sent <= 3; sent++) {
			await advance(spacing);
			await until(() => receiver.raw.length === 1 + sent, `copy ${sent}`);
		}
		const atOnce = queued(await send(MOCK_CONTROL_PATHS.copies, 'POST', { webhook_event_id: id, copies: 4, at_once: true }));
		expect(atOnce).toHaveLength(4);
		await advance(0);
		await until(() => receiver.raw.length === 8, 'the copies sent at once');
		expect(new Set(receiver.raw)).toEqual(new Set([receiver.raw[0]]));
		await until(async () => (await log()).length === 8, 'their log entries');
		const copies = (await log()).filter((entry) => entry.origin === 'copy');
		expect(copies.map((entry) => entry.started_at - T)).toEqual([1, 2, 3, 3, 3, 3, 3].map((n) => n * spacing));
		for (const [body, message] of [
			[{ webhook_event_id: id, copies: 0 }, /copies: Too small/],
			[{ webhook_event_id: id, copies: 101 }, /copies: Too big/],
			[{ webhook_event_id: id, copies: 1.5 }, /copies: /],
			[{ webhook_event_id: id }, /copies: /],
			[{ webhook_event_id: id, copies: 2, at_once: 'yes' }, /at_once: /],
		] as const) {
			expectError(await send(MOCK_CONTROL_PATHS.copies, 'POST', body), 400, message);
		}
		expectError(await send(MOCK_CONTROL_PATHS.copies, 'POST', { webhook_event_id: 'whe_nope', copies: 2 }), 404, /whe_nope/);
	});

	it('reorder: the last batch reversed, each moved from the queue so the receiver gets it once, out of order; then listed envelopes again in the listed order', async () => {
		const receiver = await keepingReceiver();
		await webhook(receiver.url);
		// Frozen, the cycle's deliveries wait in the queue.
		await send(MOCK_CONTROL_PATHS.clock, 'PUT', { now: T });
		const cycle = await send(MOCK_CONTROL_PATHS.process, 'POST', { created: 3, updated: 0, deleted: 0, signals: 0 });
		const made = (cycle.json as { events: Array<{ account_id: string; event_data: { job_id: string } }> }).events
			.filter((event) => event.account_id === 'acc_demo')
			.map((event) => event.event_data.job_id);
		expect(made).toHaveLength(3);
		const batch = queued(await send(MOCK_CONTROL_PATHS.reorder, 'POST'));
		expect(batch.map((entry) => [entry.origin, entry.moved])).toEqual([['reordered', true], ['reordered', true], ['reordered', true]]);
		const spacing = LIMITS.webhookBatchSpacingMs * TIME_SCALE;
		for (let sent = 1; sent <= 3; sent++) {
			await advance(sent === 1 ? 0 : spacing);
			await until(() => receiver.raw.length === sent, `delivery ${sent}`);
		}
		// One spacing more: nothing is left of the old order.
		await advance(spacing * 3);
		await pause(100);
		const envelopes = receiver.raw.map((body) => webhookEventSchema.parse(JSON.parse(body)));
		expect(envelopes.map((envelope) => (envelope.event_data as { job_id: string }).job_id)).toEqual([...made].reverse());
		expect(envelopes.map((envelope) => envelope.webhook_event_id)).toEqual(batch.map((entry) => entry.webhook_event_id));
		await until(async () => (await log()).length === 3, 'the log');
		expect((await log()).map((entry) => entry.origin)).toEqual(['reordered', 'reordered', 'reordered']);

		// Already sent: listed ones go again (not moved), in the listed order.
		const [a, b, c] = batch.map((entry) => entry.webhook_event_id);
		const again = queued(await send(MOCK_CONTROL_PATHS.reorder, 'POST', { webhook_event_ids: [b, c, a] }));
		expect(again.map((entry) => [entry.webhook_event_id, entry.moved])).toEqual([[b, false], [c, false], [a, false]]);
		await advance(0);
		await advance(spacing);
		await advance(spacing);
		await until(() => receiver.raw.length === 6, 'the listed ones');
		expect(receiver.ids().slice(3)).toEqual([b, c, a]);

		for (const [body, status, message] of [
			[{ webhook_event_ids: [] }, 400, /webhook_event_ids: Too small/],
			[{ webhook_event_ids: Array.from({ length: 1001 }, (_, i) => `whe_${i}`) }, 400, /webhook_event_ids: Too big/],
			[{ webhook_event_ids: [a, a] }, 400, /twice/],
			[{ webhook_event_ids: [a, 'whe_nope'] }, 404, /whe_nope/],
			[{ order: 'reversed' }, 400, /Unrecognized key/],
			['[', 400, /must be JSON/],
		] as const) {
			expectError(await send(MOCK_CONTROL_PATHS.reorder, 'POST', body), status, message);
		}
		await send(MOCK_CONTROL_PATHS.reset, 'POST');
		expectError(await send(MOCK_CONTROL_PATHS.reorder, 'POST', {}), 404, /No batch to reorder/);
	});

	it("failures: a receiver's next attempts fail (sent, its 200 counted as failed), then deliveries go on; the retry schedule shows", async () => {
		const receiver = await keepingReceiver();
		await webhook(receiver.url);
		const rule = await send(MOCK_CONTROL_PATHS.failures, 'POST', { url: receiver.url, fail_next: 2 });
		expect(rule).toEqual({ status: 200, json: { failures: [{ url: receiver.url, fail_next: 2, failure: 'status', status: 500, reach_receiver: true, remaining: 2 }] } });
		expect((await send(MOCK_CONTROL_PATHS.failures)).json).toEqual(rule.json);
		expect((await send(MOCK_CONTROL_PATHS.events, 'POST', { event_type: 'job_created' })).status).toBe(200);
		await until(async () => (await log()).length === 3, 'two failed attempts and the delivery');
		const attempts = await log();
		expect(attempts.map((entry) => [entry.attempt, entry.status, entry.outcome, entry.retry_in_ms, entry.injected])).toEqual([
			[1, 500, 'retry_scheduled', LIMITS.webhookFirstBackoffMs * TIME_SCALE, true],
			[2, 500, 'retry_scheduled', 2 * LIMITS.webhookFirstBackoffMs * TIME_SCALE, true],
			[3, 200, 'delivered', undefined, undefined],
		]);
		expect(attempts[0].error).toBe('status 500 (failure rule, fail_next: the receiver answered 200)');
		// The receiver had every attempt: the same envelope three times, as a lost 200 makes it.
		expect(receiver.raw).toHaveLength(3);
		expect(new Set(receiver.ids()).size).toBe(1);
		expect(attempts[1].started_at - attempts[0].started_at).toBeGreaterThanOrEqual(LIMITS.webhookFirstBackoffMs * TIME_SCALE - 2);
		// Used up, the rule is gone.
		expect((await send(MOCK_CONTROL_PATHS.failures)).json).toEqual({ failures: [] });
	});

	it('failures with reach_receiver false: the receiver is not contacted until the failures are used up; four fail a delivery for good', async () => {
		const receiver = await keepingReceiver();
		const setting = await webhook(receiver.url);
		await send(MOCK_CONTROL_PATHS.failures, 'POST', { webhook_id: setting.webhook_id, fail_next: 2, failure: 'timeout', reach_receiver: false });
		expect((await send(MOCK_CONTROL_PATHS.events, 'POST', { event_type: 'job_created' })).status).toBe(200);
		await until(async () => (await log()).length === 3, 'the attempts');
		expect((await log()).map((entry) => [entry.status, entry.error, entry.outcome])).toEqual([
			[null, 'timeout (failure rule, fail_next: not sent to the receiver)', 'retry_scheduled'],
			[null, 'timeout (failure rule, fail_next: not sent to the receiver)', 'retry_scheduled'],
			[200, null, 'delivered'],
		]);
		expect(receiver.raw).toHaveLength(1);

		await send(MOCK_CONTROL_PATHS.failures, 'POST', { webhook_id: setting.webhook_id, fail_next: 1 + LIMITS.webhookMaxRetries, failure: 'drop', reach_receiver: false });
		expect((await send(MOCK_CONTROL_PATHS.events, 'POST', { event_type: 'job_created' })).status).toBe(200);
		await until(async () => (await log()).length === 7, 'four attempts');
		expect((await log()).slice(3).map((entry) => [entry.attempt, entry.outcome])).toEqual([[1, 'retry_scheduled'], [2, 'retry_scheduled'], [3, 'retry_scheduled'], [4, 'failed']]);
		expect((await log())[6].error).toBe('connection dropped (failure rule, fail_next: not sent to the receiver)');
		expect(receiver.raw).toHaveLength(1);
	});

	it('failures: a rule per webhook or URL (a new one replaces it), at most 100; bad rules 400, unknown targets 404; DELETE clears', async () => {
		const receiver = await keepingReceiver();
		const setting = await webhook(receiver.url);
		await send(MOCK_CONTROL_PATHS.failures, 'POST', { webhook_id: setting.webhook_id, fail_next: 5 });
		const replaced = await send(MOCK_CONTROL_PATHS.failures, 'POST', { webhook_id: setting.webhook_id, fail_next: 1, status: 503 });
		expect(replaced.json).toEqual({ failures: [{ webhook_id: setting.webhook_id, fail_next: 1, failure: 'status', status: 503, reach_receiver: true, remaining: 1 }] });
		for (const [body, message] of [
			[{ fail_next: 1 }, /give webhook_id or url/],
			[{ webhook_id: setting.webhook_id, url: receiver.url, fail_next: 1 }, /give webhook_id or url/],
			[{ url: receiver.url, fail_next: 0 }, /fail_next: Too small/],
			[{ url: receiver.url, fail_next: 101 }, /fail_next: Too big/],
			[{ url: receiver.url, fail_next: 1, status: 200 }, /status: Too small/],
			[{ url: receiver.url, fail_next: 1, status: 600 }, /status: Too big/],
			[{ url: receiver.url, fail_next: 1, failure: 'timeout', status: 500 }, /status goes with failure "status" only/],
			[{ url: receiver.url, fail_next: 1, failure: 'slow' }, /failure: /],
			[{ url: receiver.url, fail_next: 1, times: 2 }, /Unrecognized key/],
			['{', /must be JSON/],
		] as const) {
			expectError(await send(MOCK_CONTROL_PATHS.failures, 'POST', body), 400, message);
		}
		expectError(await send(MOCK_CONTROL_PATHS.failures, 'POST', { webhook_id: 'wh_nope', fail_next: 1 }), 404, /webhook_id "wh_nope"/);
		expectError(await send(MOCK_CONTROL_PATHS.failures, 'POST', { url: `${receiver.url}/other`, fail_next: 1 }), 404, /exactly as registered/);

		// 99 more webhooks of the demo account (its cap is 100) and one of the second's: 101 targets for 100 rules.
		const urls = Array.from({ length: LIMITS.maxWebhooksPerAccount - 1 }, (_, i) => `${receiver.url}/${i}`);
		for (const url of urls) await webhook(url);
		const second = await webhook(`${receiver.url}/second`, SECOND_TOKEN);
		for (const url of urls) expect((await send(MOCK_CONTROL_PATHS.failures, 'POST', { url, fail_next: 1 })).status).toBe(200);
		expectError(await send(MOCK_CONTROL_PATHS.failures, 'POST', { webhook_id: second.webhook_id, fail_next: 1 }), 409, /100 failure rules/);
		expect(((await send(MOCK_CONTROL_PATHS.failures)).json as { failures: unknown[] }).failures).toHaveLength(100);
		expect((await send(MOCK_CONTROL_PATHS.failures, 'DELETE')).status).toBe(204);
		expect((await send(MOCK_CONTROL_PATHS.failures)).json).toEqual({ failures: [] });
	});

	it.each([
		['POST', MOCK_CONTROL_PATHS.redeliver],
		['POST', MOCK_CONTROL_PATHS.copies],
		['POST', MOCK_CONTROL_PATHS.reorder],
		['POST', MOCK_CONTROL_PATHS.failures],
		['DELETE', MOCK_CONTROL_PATHS.failures],
	])('%s %s follows the control routes\' cross-site rule: 403 without a JSON type or X-Mock-Control', async (method, path) => {
		expectError(await send(path, method, '{}', { 'content-type': 'text/plain' }), 403, /X-Mock-Control/);
	});

	it('another method is 405 with Allow', async () => {
		for (const [path, allow] of [[MOCK_CONTROL_PATHS.redeliver, 'POST'], [MOCK_CONTROL_PATHS.failures, 'GET, POST, DELETE'], [MOCK_CONTROL_PATHS.clock, 'GET, PUT, DELETE']] as const) {
			const response = await fetch(`${server.appUrl}${path}`, { method: 'PATCH', headers: JSON_HEADERS, body: '{}' });
			expect(response.status, path).toBe(405);
			expect(response.headers.get('allow')?.split(', ').sort()).toEqual([...allow.split(', '), 'OPTIONS', ...(allow.includes('GET') ? ['HEAD'] : [])].sort());
		}
	});
});

describe('in-process (the mock object)', () => {
	let service: MockService;
	beforeAll(async () => {
		service = await createMockService({ ...SMALL, timeScale: TIME_SCALE, maxQueuedDeliveries: 6 });
	});
	afterAll(() => service?.close());
	beforeEach(async () => {
		await service.reset();
	});
	afterEach(() => service.clock.release());

	it('redeliver, sendCopies, reorder and failNext work as their routes do, and refuse with a DeliveryKnobError carrying the status', async () => {
		const receiver = await keepingReceiver();
		service.webhooks.settings.create('acc_demo', { url: receiver.url, event_types: ['job_created'] }, 1);
		service.failNext({ url: receiver.url, fail_next: 1 });
		expect(service.deliveryFailures()).toEqual([{ url: receiver.url, fail_next: 1, failure: 'status', status: 500, reach_receiver: true, remaining: 1 }]);
		await service.emitEvent({ event_type: 'job_created' });
		await service.webhooks.engine.idle();
		const id = receiver.ids()[0];
		expect(service.webhooks.engine.deliveries().map((entry) => [entry.origin, entry.outcome])).toEqual([['cycle', 'retry_scheduled'], ['cycle', 'delivered']]);

		// Sent already, so not moved: sent again. (Listed after the redelivery below, it would move that queued delivery.)
		expect(service.reorder([id]).map((entry) => [entry.origin, entry.moved])).toEqual([['reordered', false]]);
		expect(service.redeliver(id).map((entry) => entry.origin)).toEqual(['redelivery']);
		expect(service.sendCopies(id, 2, { atOnce: true }).map((entry) => entry.origin)).toEqual(['copy', 'copy']);
		await service.webhooks.engine.idle();
		expect(receiver.ids()).toEqual(Array.from({ length: 6 }, () => id));
		expect(service.webhooks.engine.deliveries().slice(2).map((entry) => entry.origin).sort()).toEqual(['copy', 'copy', 'redelivery', 'reordered']);

		const refusal = (run: () => unknown) => {
			try {
				run();
			} catch (error) {
				return error instanceof DeliveryKnobError ? error.status : error;
			}
			return 'no error';
		};
		expect(refusal(() => service.redeliver('whe_nope'))).toBe(404);
		expect(refusal(() => service.sendCopies(id, 0))).toBe(400);
		expect(refusal(() => service.reorder([]))).toBe(400);
		expect(refusal(() => service.failNext({ url: 'http://127.0.0.1:9/none', fail_next: 1 }))).toBe(404);
		expect(refusal(() => service.failNext({ url: receiver.url, fail_next: -1 }))).toBe(400);
		service.clearDeliveryFailures();
		expect(service.deliveryFailures()).toEqual([]);
	});

	it('a knob that would pass the delivery queue cap is refused whole (409) and queues nothing', async () => {
		const receiver = await keepingReceiver();
		service.webhooks.settings.create('acc_demo', { url: receiver.url, event_types: ['job_created'] }, 1);
		// Frozen, nothing leaves the queue: 4 of its 6 places taken.
		service.clock.freeze(T);
		await service.processCycle({ created: 4, updated: 0, deleted: 0, signals: 0, domain_changes: 0 });
		const [first] = service.reorder().map((entry) => entry.webhook_event_id);
		expect(service.webhooks.engine.queued()).toBe(4);
		expect(() => service.sendCopies(first, 3)).toThrow(/would pass its cap/);
		expect(service.webhooks.engine.queued()).toBe(4);
		expect(service.sendCopies(first, 2)).toHaveLength(2);
		expect(() => service.redeliver(first)).toThrow(DeliveryKnobError);
		// Moving queued deliveries takes no place.
		expect(service.reorder()).toHaveLength(4);
		expect(service.webhooks.engine.queued()).toBe(6);
		service.clock.advance(60_000);
		await service.webhooks.engine.idle();
		expect(receiver.raw).toHaveLength(6);
	});
});
