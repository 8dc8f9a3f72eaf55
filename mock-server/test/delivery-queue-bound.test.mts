// The webhook delivery queue is bounded: 100 webhooks pointing at a closed port and cycles over a long simulated time (time scale 1/1000: a second is a millisecond) never queue more than the caps, all accounts together and per account; what is over a cap is logged `not_sent` with the reason and how many; memory stays flat.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { LIMITS, MOCK_CONTROL_PATHS, ENDPOINTS, WEBHOOK_EVENT_TYPES } from '../src/base/contract.mts';
import { createMockService } from '../src/service.mts';
import { MAX_LOG_ENTRIES } from '../src/webhooks/delivery-engine.mts';
import { freePort } from './free-port.mts';
import { APP_URL, call, SMALL, useMock } from './harness.mts';

const MAX_QUEUED = 300;
const MAX_PER_ACCOUNT = 200;
// The deliveries go out over real sockets, past msw.
const mock = useMock({ ...SMALL, timeScale: 0.001, maxQueuedDeliveries: MAX_QUEUED, maxQueuedDeliveriesPerAccount: MAX_PER_ACCOUNT }, { onUnhandledFrame: 'bypass' });

/** The heap after a full garbage collection (v8's gc, exposed for this test file only). */
function heapAfterGc(): number {
	setFlagsFromString('--expose-gc');
	(runInNewContext('gc') as () => void)();
	return process.memoryUsage().heapUsed;
}

/** Updates only: the data stays the same size, so what the heap does is the queue's and the log's. */
const cycle = async () => {
	const answer = await call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST', body: { created: 0, updated: 300, deleted: 0, signals: 0 } });
	expect(answer.status).toBe(200);
	// 10 ms of real time: 10 s simulated, while the queue sends and retries (and fails: the port is closed).
	await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('the webhook delivery queue', () => {
	it('holds at most the caps, logs the rest not_sent with the reason and count, and memory stays flat', { timeout: 300_000 }, async () => {
		const url = `http://127.0.0.1:${await freePort()}/hook`;
		for (let i = 0; i < LIMITS.maxWebhooksPerAccount; i++) {
			const created = await call(ENDPOINTS.listWebhooks.path, { base: APP_URL, method: 'POST', body: { url: `${url}/${i}`, event_types: WEBHOOK_EVENT_TYPES } });
			expect(created.status).toBe(201);
		}
		const { engine } = mock.service.webhooks;
		let most = 0;
		const cycles = async (count: number) => {
			for (let i = 0; i < count; i++) {
				await cycle();
				most = Math.max(most, engine.queued());
				expect(engine.queued('acc_demo')).toBeLessThanOrEqual(MAX_PER_ACCOUNT);
			}
		};
		await cycles(3);
		const heapBefore = heapAfterGc();
		await cycles(20);
		const heapAfter = heapAfterGc();
		expect(most).toBeLessThanOrEqual(MAX_QUEUED);
		const log = engine.deliveries();
		expect(log.length).toBeLessThanOrEqual(MAX_LOG_ENTRIES);
		const notSent = log.filter((entry) => entry.outcome === 'not_sent');
		// One entry per cycle, webhook and event type, counting the deliveries it stands for: here every cycle's ~30,000 but the 200 queued.
		expect(notSent.length).toBeGreaterThanOrEqual(20 * LIMITS.maxWebhooksPerAccount);
		for (const entry of notSent) {
			expect(entry).toMatchObject({ webhook_event_id: null, attempt: 0, status: null, duration_ms: 0, event_type: 'job_updated' });
			expect(entry.count).toBeGreaterThanOrEqual(1);
			expect(entry.error).toBe(`not sent (${entry.count} of this cycle's deliveries): the account's delivery queue is full (${MAX_PER_ACCOUNT} deliveries queued, the cap per account; --max-queued-deliveries-per-account)`);
		}
		// The queue also sent (and retried, and failed): the port is closed.
		expect(log.some((entry) => entry.outcome === 'failed' && entry.attempt === LIMITS.webhookMaxRetries + 1)).toBe(true);
		// Twenty cycles of thousands of deliveries each (over 200 simulated seconds): unbounded, at ~1.7 KB a queued delivery, that was
		// hundreds of MB; bounded, what grows is the log's ring (its bound: MAX_LOG_ENTRIES entries, not reached here).
		expect((heapAfter - heapBefore) / 1e6).toBeLessThan(30);
	});

	it('the cap for all accounts applies too, and its reason names its flag', async () => {
		const small = await createMockService({ ...SMALL, timeScale: 0.001, maxQueuedDeliveries: 5 });
		try {
			const url = `http://127.0.0.1:${await freePort()}/hook`;
			small.webhooks.settings.create('acc_demo', { url, event_types: ['job_created'] }, 0);
			await small.processCycle({ created: 20, updated: 0, deleted: 0, signals: 0, domain_changes: 0 });
			expect(small.webhooks.engine.queued()).toBeLessThanOrEqual(5);
			const notSent = small.webhooks.engine.deliveries().filter((entry) => entry.outcome === 'not_sent');
			expect(notSent.length).toBeGreaterThan(0);
			expect(notSent[0].error).toBe(`not sent (${notSent[0].count} of this cycle's deliveries): the delivery queue is full (5 deliveries queued, the cap for all accounts; --max-queued-deliveries)`);
			expect(notSent[0].count).toBe(15);
		} finally {
			small.close();
		}
	});
});
