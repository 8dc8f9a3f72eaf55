/**
 * The webhook delivery engine: turns a processing cycle's events into
 * envelopes for every setting that asked for that event type, sends them
 * spaced like the service does, retries failures with exponential backoff,
 * and logs every attempt. Every duration is multiplied by `timeScale` so tests
 * can run the spec's seconds in milliseconds.
 *
 * Schedule (spec "Delivery rules", numbers in LIMITS):
 * - a cycle's deliveries form one batch; inside it one delivery leaves every
 *   webhookBatchSpacingMs, and a second cycle queues behind the first;
 * - an attempt fails unless the answer is a complete HTTP 200 within webhookTimeoutMs;
 * - a failed delivery is retried up to webhookMaxRetries times, after
 *   webhookFirstBackoffMs, then twice that, then four times; a retry does not
 *   wait for the batch;
 * - every attempt carries the same envelope, hence the same webhook_event_id.
 */
import { LIMITS } from '../../../contract/api';
import type { WebhookEvent } from '../../../contract/schemas';
import { buildEnvelope, type CycleEvent } from './envelope';
import { sendAttempt } from './send-attempt';
import type { WebhookSettingsStore } from './settings-store';

export interface DeliveryLogEntry {
	webhook_event_id: string;
	webhook_id: string;
	account_id: string;
	event_type: WebhookEvent['event_type'];
	url: string;
	/** 1 for the first attempt, 2 to 1 + webhookMaxRetries for the retries. */
	attempt: number;
	/** Wall-clock start of the attempt, milliseconds since the epoch. */
	started_at: number;
	duration_ms: number;
	/** HTTP status of the answer, null when none came (timeout, refused connection). */
	status: number | null;
	error: string | null;
	outcome: 'delivered' | 'retry_scheduled' | 'failed';
	/** Only on `retry_scheduled`: the scaled backoff before the next attempt. */
	retry_in_ms?: number;
}

export interface DeliveryEngineOptions {
	settings: WebhookSettingsStore;
	/** The `organization_id` put in the envelopes of an account's events. */
	organizationIdOf: (accountId: string) => string;
	/** Multiplies every delay and timeout; must be > 0. Default 1. */
	timeScale?: number;
	/** Envelope times, Unix seconds. Default: the wall clock. */
	nowSeconds?: () => number;
}

interface Delivery {
	envelope: WebhookEvent;
	body: string;
	url: string;
	accountId: string;
}

/** Bounds the mock's memory when cycles run for hours; the oldest attempts go first. */
export const MAX_LOG_ENTRIES = 100_000;

export class DeliveryEngine {
	private readonly log: DeliveryLogEntry[] = [];
	private readonly timers = new Set<ReturnType<typeof setTimeout>>();
	private cancel = new AbortController();
	/** Bumped by reset(), so attempts already in flight do not log into the new state. */
	private generation = 0;
	private pending = 0;
	private idleWaiters: Array<() => void> = [];
	private nextSlotAt = 0;
	private readonly timeScale: number;
	private readonly nowSeconds: () => number;
	/** Told of every logged attempt, so a state folder can save it. */
	onRecord?: (entry: DeliveryLogEntry) => void;

	constructor(private readonly options: DeliveryEngineOptions) {
		const timeScale = options.timeScale ?? 1;
		if (!Number.isFinite(timeScale) || timeScale <= 0) {
			throw new RangeError(`timeScale must be a number above 0, got ${timeScale}`);
		}
		this.timeScale = timeScale;
		this.nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
	}

	/** Queues the envelopes for a cycle's events and returns them, in sending order. */
	dispatch(events: readonly CycleEvent[]): WebhookEvent[] {
		const envelopes: WebhookEvent[] = [];
		const spacing = LIMITS.webhookBatchSpacingMs * this.timeScale;
		for (const event of events) {
			for (const setting of this.options.settings.subscribedTo(event.account_id, event.event_type)) {
				const envelope = buildEnvelope(
					event,
					setting.webhook_id,
					this.options.organizationIdOf(event.account_id),
					this.nowSeconds(),
				);
				envelopes.push(envelope);
				const now = performance.now();
				const slot = Math.max(now, this.nextSlotAt);
				this.nextSlotAt = slot + spacing;
				this.pending += 1;
				const delivery = {
					envelope,
					body: JSON.stringify(envelope),
					url: setting.url,
					accountId: event.account_id,
				};
				this.later(slot - now, () => this.attempt(delivery, 1));
			}
		}
		return envelopes;
	}

	/** Every attempt so far, oldest first. */
	deliveries(): readonly DeliveryLogEntry[] {
		return this.log;
	}

	/** Puts back a saved log (a state folder on start); deliveries that were still queued are not resumed. */
	restoreLog(entries: readonly DeliveryLogEntry[]): void {
		this.log.length = 0;
		for (const entry of entries.slice(-MAX_LOG_ENTRIES)) this.log.push(entry);
	}

	/** Resolves once every queued delivery has been delivered or has failed its last retry. */
	idle(): Promise<void> {
		if (this.pending === 0) return Promise.resolve();
		return new Promise((resolve) => this.idleWaiters.push(resolve));
	}

	/** Cancels queued and in-flight deliveries and clears the log. */
	reset(): void {
		this.generation += 1;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.cancel.abort();
		this.cancel = new AbortController();
		this.log.length = 0;
		this.nextSlotAt = 0;
		this.pending = 0;
		this.wakeIdleWaiters();
	}

	private async attempt(delivery: Delivery, attempt: number): Promise<void> {
		const generation = this.generation;
		const startedAt = Date.now();
		const result = await sendAttempt(
			delivery.url,
			delivery.body,
			LIMITS.webhookTimeoutMs * this.timeScale,
			this.cancel.signal,
		);
		if (generation !== this.generation) return;
		const delivered = result.status === 200;
		const canRetry = !delivered && attempt <= LIMITS.webhookMaxRetries;
		const retryInMs = LIMITS.webhookFirstBackoffMs * 2 ** (attempt - 1) * this.timeScale;
		this.record({
			webhook_event_id: delivery.envelope.webhook_event_id,
			webhook_id: delivery.envelope.webhook_id,
			account_id: delivery.accountId,
			event_type: delivery.envelope.event_type,
			url: delivery.url,
			attempt,
			started_at: startedAt,
			duration_ms: result.durationMs,
			status: result.status,
			error: result.error,
			outcome: delivered ? 'delivered' : canRetry ? 'retry_scheduled' : 'failed',
			...(canRetry ? { retry_in_ms: retryInMs } : {}),
		});
		if (canRetry) {
			this.later(retryInMs, () => this.attempt(delivery, attempt + 1));
			return;
		}
		this.pending -= 1;
		if (this.pending === 0) this.wakeIdleWaiters();
	}

	private record(entry: DeliveryLogEntry): void {
		this.log.push(entry);
		if (this.log.length > MAX_LOG_ENTRIES) this.log.splice(0, this.log.length - MAX_LOG_ENTRIES);
		this.onRecord?.(entry);
	}

	private later(delayMs: number, run: () => Promise<void>): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			void run();
		}, delayMs);
		this.timers.add(timer);
	}

	private wakeIdleWaiters(): void {
		const waiters = this.idleWaiters;
		this.idleWaiters = [];
		for (const wake of waiters) wake();
	}
}
