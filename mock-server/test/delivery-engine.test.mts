// The mock's delivery engine over real HTTP, against node:http receivers.
import { afterEach, describe, expect, it } from 'vitest';
import { MockClock } from '../src/base/clock.mts';
import { LIMITS, webhookEventSchema } from '../src/base/contract.mts';
import { generateDataset } from '../src/data/generate.mts';
import { DEFAULT_OPTIONS } from '../src/options.mts';
import { createWebhooks, type CycleEvent, type DeliveryLogEntry } from '../src/webhooks/index.mts';
import { pause, startReceiver, until, type Answer, type Receiver } from './receiver.mts';

// A job and a signal of the seeded data, as a cycle's events carry them.
const {
	jobs: [{ job }],
	signals: [signal],
} = generateDataset({ ...DEFAULT_OPTIONS, sources: 1, jobs: 1, signals: 1 });

// The cases that time an attempt out, or count what a reset stops, run on the wall clock with 1 s of the spec as
// 50 ms: timeout 250 ms, backoff 50/100/200 ms, spacing 50 ms.
const TIME_SCALE = 0.05;
const scaled = (ms: number) => ms * TIME_SCALE;
/** A frozen clock's date. */
const T = Date.parse('2027-03-01T12:00:00Z');

const receivers: Receiver[] = [];
const modules: Array<ReturnType<typeof createWebhooks>> = [];

afterEach(async () => {
	for (const module of modules.splice(0)) module.reset();
	await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

function setup() {
	const webhooks = createWebhooks({ organizationIdOf: (id) => `org_${id}`, timeScale: TIME_SCALE });
	modules.push(webhooks);
	return webhooks;
}

/**
 * The other cases: on a frozen clock at the spec's own scale, so spacings and backoffs cost no real time and the log's
 * times are exact, while an attempt's timeout is a real 5 s, which a local receiver's answer does not reach even on a
 * busy machine (at 250 ms it did, and the attempt was logged as a timeout and sent again).
 */
function setupFrozen() {
	const clock = new MockClock();
	clock.freeze(T);
	const webhooks = createWebhooks({ organizationIdOf: (id) => `org_${id}`, clock });
	modules.push(webhooks);
	/** Moves the clock to each timer in turn (the batch's next slot, a retry) until every delivery has had its last attempt. */
	const runToIdle = async () => {
		let idle = false;
		void webhooks.engine.idle().then(() => (idle = true));
		while (!idle) {
			const next = clock.state().next_timer_in_ms;
			if (next === null) await pause(5);
			else clock.advance(next);
		}
	};
	return { webhooks, clock, runToIdle };
}

async function receiver(answer: Answer) {
	const started = await startReceiver(answer);
	receivers.push(started);
	return started;
}

/** Keeps each body and answers with the status the test picks for that attempt number. */
function keeping(statusFor: (attempt: number, body: unknown) => number | Promise<number>) {
	const bodies: unknown[] = [];
	const answer: Answer = async (_request, body, response) => {
		const parsed: unknown = JSON.parse(body.toString());
		bodies.push(parsed);
		response.statusCode = await statusFor(bodies.length, parsed);
		response.end();
	};
	return { bodies, answer };
}

const created: CycleEvent = { account_id: 'a1', event_type: 'job_created', event_data: job };
const signalled: CycleEvent = { account_id: 'a1', event_type: 'signal', event_data: signal };

describe('delivery engine', () => {
	it('sends each event, in the spec envelope, only to the settings that asked for its type', async () => {
		const { webhooks, runToIdle } = setupFrozen();
		const jobs = keeping(() => 200);
		const signals = keeping(() => 200);
		const jobsUrl = (await receiver(jobs.answer)).url;
		const signalsUrl = (await receiver(signals.answer)).url;
		const jobSetting = webhooks.settings.create('a1', { url: jobsUrl, event_types: ['job_created'] }, 1);
		webhooks.settings.create('a1', { url: signalsUrl, event_types: ['signal'] }, 1);
		// Another account's setting must see none of a1's events.
		webhooks.settings.create('a2', { url: signalsUrl, event_types: ['job_created', 'signal'] }, 1);

		const queued = await webhooks.engine.dispatch([created, signalled]);
		await runToIdle();

		expect(queued).toHaveLength(2);
		for (const sent of queued) expect(webhookEventSchema.safeParse(sent).success).toBe(true);
		expect(jobs.bodies).toEqual([queued[0]]);
		expect(signals.bodies).toEqual([queued[1]]);
		expect(queued[0]).toMatchObject({
			webhook_id: jobSetting.webhook_id,
			organization_id: 'org_a1',
			event_type: 'job_created',
			event_data: job,
		});
		expect(new Set(queued.map((sent) => sent.webhook_event_id)).size).toBe(2);
		expect(webhooks.engine.deliveries().map((entry) => entry.outcome)).toEqual(['delivered', 'delivered']);
	});

	it('spaces the deliveries of a batch by the spacing, on its clock', async () => {
		// Each delivery goes when the test moves the clock to its slot, not when a busy machine's timers fire.
		const { webhooks, clock } = setupFrozen();
		const sink = keeping(() => 200);
		webhooks.settings.create('a1', { url: (await receiver(sink.answer)).url, event_types: ['job_created'] }, 1);
		await webhooks.engine.dispatch([created, created, created, created]);
		const spacing = LIMITS.webhookBatchSpacingMs;
		for (let sent = 0; sent < 4; sent++) {
			// Each delivery after the first waits exactly one spacing after the one before: not a millisecond less.
			expect(clock.state()).toMatchObject({ timers: 1, next_timer_in_ms: sent === 0 ? 0 : spacing });
			if (sent > 0) {
				clock.advance(spacing - 1);
				expect(clock.state()).toMatchObject({ timers: 1, next_timer_in_ms: 1 });
				expect(sink.bodies).toHaveLength(sent);
			}
			clock.advance(sent === 0 ? 0 : 1);
			await until(() => sink.bodies.length === sent + 1, `delivery ${sent + 1}`);
		}
		await webhooks.engine.idle();
		const log = webhooks.engine.deliveries();
		expect(log.map((entry) => entry.outcome)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
		expect(log.map((entry) => entry.started_at - T)).toEqual([0, 1, 2, 3].map((n) => n * spacing));
	});

	it('retries a 500 after the first backoff with the same webhook_event_id', async () => {
		const { webhooks, runToIdle } = setupFrozen();
		const flaky = keeping((attempt) => (attempt === 1 ? 500 : 200));
		webhooks.settings.create('a1', { url: (await receiver(flaky.answer)).url, event_types: ['job_created'] }, 1);
		const [sent] = await webhooks.engine.dispatch([created]);
		await runToIdle();

		expect(flaky.bodies).toEqual([sent, sent]);
		const log = webhooks.engine.deliveries();
		expect(log.map(pick)).toEqual([
			{ attempt: 1, status: 500, outcome: 'retry_scheduled', error: 'status 500' },
			{ attempt: 2, status: 200, outcome: 'delivered', error: null },
		]);
		expect(log[0].retry_in_ms).toBe(LIMITS.webhookFirstBackoffMs);
		expect(log[1].started_at - log[0].started_at).toBe(LIMITS.webhookFirstBackoffMs);
	});

	it('fails an attempt that takes longer than the scaled 5 s, then retries it', async () => {
		const webhooks = setup();
		const slow = keeping(async (attempt) => {
			if (attempt === 1) await pause(scaled(LIMITS.webhookTimeoutMs) * 2.5);
			return 200;
		});
		webhooks.settings.create('a1', { url: (await receiver(slow.answer)).url, event_types: ['job_created'] }, 1);
		await webhooks.engine.dispatch([created]);
		await webhooks.engine.idle();

		const log = webhooks.engine.deliveries();
		expect(log.map(pick)).toEqual([
			{ attempt: 1, status: null, outcome: 'retry_scheduled', error: `timeout after ${scaled(LIMITS.webhookTimeoutMs)} ms` },
			{ attempt: 2, status: 200, outcome: 'delivered', error: null },
		]);
		expect(log[0].duration_ms).toBeGreaterThanOrEqual(scaled(LIMITS.webhookTimeoutMs) - 2);
	});

	it('gives up after 3 retries with doubling backoff; a non-200 success code and a refused connection fail too', async () => {
		const { webhooks, runToIdle } = setupFrozen();
		const refusing = await receiver(() => undefined);
		const deadUrl = refusing.url;
		await refusing.close();
		receivers.pop();
		const accepted = keeping(() => 202);
		webhooks.settings.create('a1', { url: (await receiver(accepted.answer)).url, event_types: ['job_created'] }, 1);
		webhooks.settings.create('a1', { url: deadUrl, event_types: ['job_created'] }, 1);
		await webhooks.engine.dispatch([created]);
		await runToIdle();

		const log = webhooks.engine.deliveries();
		expect(accepted.bodies).toHaveLength(1 + LIMITS.webhookMaxRetries);
		const attempts = log.filter((entry) => entry.url === deadUrl);
		expect(attempts.map((entry) => entry.outcome)).toEqual([
			'retry_scheduled',
			'retry_scheduled',
			'retry_scheduled',
			'failed',
		]);
		expect(attempts.every((entry) => entry.status === null && entry.error !== null)).toBe(true);
		expect(attempts.slice(0, 3).map((entry) => entry.retry_in_ms)).toEqual(
			[1, 2, 4].map((factor) => LIMITS.webhookFirstBackoffMs * factor),
		);
		expect(log.filter((entry) => entry.status === 202).map((entry) => entry.outcome).at(-1)).toBe('failed');
	});

	it('reset cancels queued deliveries, clears the log and the settings', async () => {
		const webhooks = setup();
		const sink = keeping(() => 200);
		webhooks.settings.create('a1', { url: (await receiver(sink.answer)).url, event_types: ['job_created'] }, 1);
		await webhooks.engine.dispatch(Array.from({ length: 20 }, () => created));
		const idle = webhooks.engine.idle();
		await pause(scaled(LIMITS.webhookBatchSpacingMs) * 2);
		webhooks.reset();
		await idle;
		const receivedAtReset = sink.bodies.length;
		await pause(scaled(LIMITS.webhookBatchSpacingMs) * 4);

		expect(receivedAtReset).toBeLessThan(20);
		expect(sink.bodies.length).toBeLessThanOrEqual(receivedAtReset + 1);
		expect(webhooks.engine.deliveries()).toEqual([]);
		expect(webhooks.settings.list('a1')).toEqual([]);
		expect(await webhooks.engine.dispatch([created])).toEqual([]);
	});

	it('refuses a time scale that is not above 0', () => {
		for (const timeScale of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
			expect(() => createWebhooks({ organizationIdOf: String, timeScale })).toThrow(RangeError);
		}
	});
});

function pick(entry: DeliveryLogEntry) {
	return { attempt: entry.attempt, status: entry.status, outcome: entry.outcome, error: entry.error };
}
