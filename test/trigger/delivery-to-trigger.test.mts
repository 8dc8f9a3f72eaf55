// Integration over real HTTP: the mock's delivery engine sends a cycle's events to a
// node:http receiver that runs the trigger's webhook function.
import { setTimeout as pause } from 'node:timers/promises';
import { createWebhooks, type CycleEvent } from 'job-signals-mock-server';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../contract/api';
import { job, signal } from '../../harness/in-process/trigger-fixtures.mts';
import { createTrigger } from './trigger-under-test.mts';
import { serveTrigger, type Interference } from '../../harness/in-process/trigger-receiver.mts';
import { WEBHOOK_EVENT_TYPES } from '../../contract/events';

// The spec's 5 s timeout becomes 1 s, its 1 s spacing and first backoff 200 ms: the timeout stays far above
// what a loaded machine adds to an answer, which includes running an execution in the harness.
const TIME_SCALE = 0.2;
const TIMEOUT_MS = LIMITS.webhookTimeoutMs * TIME_SCALE;

const cycle: CycleEvent[] = [
	...[1, 2, 3].map((n): CycleEvent => ({ account_id: 'a1', event_type: 'job_created', event_data: { ...job, job_id: `job_${n}` } })),
	{ account_id: 'a1', event_type: 'job_updated', event_data: { ...job, job_title: 'Staff Platform Engineer' } },
	{ account_id: 'a1', event_type: 'job_deleted', event_data: { ...job, deleted_at: 1_763_100_000 } },
	{ account_id: 'a1', event_type: 'signal', event_data: signal },
	{ account_id: 'a1', event_type: 'signal', event_data: { ...signal, signal_id: 'sig_2' } },
];

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function run(interference: Interference, parameters = {}) {
	const webhooks = createWebhooks({ organizationIdOf: (id) => `org_${id}`, timeScale: TIME_SCALE });
	cleanups.push(() => webhooks.reset());
	const served = await serveTrigger(createTrigger({ parameters }), interference);
	cleanups.push(() => served.close());
	webhooks.settings.create('a1', { url: served.url, event_types: WEBHOOK_EVENT_TYPES }, 1);
	const sent = await webhooks.engine.dispatch(cycle);
	await webhooks.engine.idle();
	return { sent, served, log: webhooks.engine.deliveries() };
}

function expectEachEmittedOnce(sent: Array<{ webhook_event_id: string }>, emitted: Array<Record<string, unknown>>) {
	expect(emitted.map((item) => item.webhook_event_id).sort()).toEqual(sent.map((e) => e.webhook_event_id).sort());
}

describe('mock delivery engine → trigger over HTTP', () => {
	it('delivers a cycle: every event starts the workflow once, each attempt answered 200', async () => {
		const { sent, served, log } = await run({});
		expect(sent).toHaveLength(cycle.length);
		expectEachEmittedOnce(sent, served.emitted);
		expect(log.every((entry) => entry.status === 200 && entry.attempt === 1)).toBe(true);
	});

	it('a 500 before the request reaches n8n gets a retry, and the workflow starts once', async () => {
		const { sent, served, log } = await run({ before: (_id, attempt) => (attempt === 1 ? 500 : undefined) });
		expectEachEmittedOnce(sent, served.emitted);
		expect(log.filter((entry) => entry.attempt === 2 && entry.status === 200)).toHaveLength(sent.length);
	});

	it('a 500 after the workflow started gets a retry, which the dedupe window absorbs', async () => {
		const { sent, served, log } = await run({ after: (_id, attempt) => (attempt === 1 ? 500 : undefined) });
		expectEachEmittedOnce(sent, served.emitted);
		expect([...served.attempts.values()].every((count) => count === 2)).toBe(true);
		expect(log.filter((entry) => entry.outcome === 'delivered')).toHaveLength(sent.length);
	});

	it('an answer slower than the timeout gets a retry, and the workflow still starts once', async () => {
		// Only the first event's first attempt is slow, to keep the test short.
		let slowId: string | undefined;
		const { sent, served, log } = await run({
			after: async (eventId, attempt) => {
				slowId ??= eventId;
				if (eventId === slowId && attempt === 1) await pause(TIMEOUT_MS * 2);
				return undefined;
			},
		});
		expectEachEmittedOnce(sent, served.emitted);
		const slowAttempts = log.filter((entry) => entry.webhook_event_id === slowId);
		expect(slowAttempts.map((entry) => [entry.attempt, entry.status, entry.outcome])).toEqual([
			[1, null, 'retry_scheduled'],
			[2, 200, 'delivered'],
		]);
		expect(slowAttempts[0].error).toMatch(/timeout/);
	});

	it('events the trigger does not select are acknowledged 200 and not retried', async () => {
		const { sent, served, log } = await run({}, { events: ['signal'] });
		expect(served.emitted.map((item) => item.event_type)).toEqual(['signal', 'signal']);
		expect(log).toHaveLength(sent.length);
		expect(log.every((entry) => entry.status === 200)).toBe(true);
	});
});
