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
 *
 * Bounded (the mock's own caps; the spec shows none): at most `maxQueued`
 * deliveries wait or retry at once, and at most `maxQueuedPerAccount` of one
 * account. A delivery over a cap is not queued: it is logged at once as
 * `not_sent`, attempt 0, with the reason (each queued one held ~1.7 KB, and a
 * busy setup with a receiver that is down grew without end). One entry stands
 * for all of one cycle's deliveries of an event type to a webhook that were not
 * sent (`count`): an entry each took a second per cycle of 1,000 jobs with 100
 * webhooks, and flooded the log. The log keeps the last MAX_LOG_ENTRIES entries in a ring.
 */
import { LIMITS } from '../../../contract/api';
import type { WebhookEvent } from '../../../contract/schemas';
import { buildEnvelope, type CycleEvent } from './envelope.mts';
import { sendAttempt } from './send-attempt.mts';
import { STEPS_PER_TURN, Work } from '../search/work.mts';
import type { WebhookSettingsStore } from './settings-store.mts';

export interface DeliveryLogEntry {
	/** null on a `not_sent` entry: no envelope was made. */
	webhook_event_id: string | null;
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
	/** `not_sent`: over a queue cap, never attempted (attempt 0; `error` says which cap, `count` how many). */
	outcome: 'delivered' | 'retry_scheduled' | 'failed' | 'not_sent';
	/** Only on `retry_scheduled`: the scaled backoff before the next attempt. */
	retry_in_ms?: number;
	/** Only on `not_sent`: how many of one cycle's deliveries of this event type to this webhook the entry stands for. */
	count?: number;
}

export interface DeliveryEngineOptions {
	settings: WebhookSettingsStore;
	/** The `organization_id` put in the envelopes of an account's events. */
	organizationIdOf: (accountId: string) => string;
	/** Multiplies every delay and timeout; must be > 0. Default 1. */
	timeScale?: number;
	/** Envelope times, Unix seconds. Default: the wall clock. */
	nowSeconds?: () => number;
	/** The most deliveries queued (waiting or between retries) at once, all accounts together. Default DEFAULT_MAX_QUEUED. */
	maxQueued?: number;
	/** The most of one account's. Default DEFAULT_MAX_QUEUED_PER_ACCOUNT. */
	maxQueuedPerAccount?: number;
}

/** About 17 MB of queued deliveries; at the spec's one second apart, 2.8 hours of sending. */
export const DEFAULT_MAX_QUEUED = 10_000;
export const DEFAULT_MAX_QUEUED_PER_ACCOUNT = 5_000;

interface Delivery {
	envelope: WebhookEvent;
	body: string;
	url: string;
	accountId: string;
}

/** A queued delivery (an envelope, its JSON, a timer) costs ~5–10 µs here; one counted not_sent under 1 µs (work.ts steps). */
const QUEUED_STEPS = STEPS_PER_TURN / 400;
const NOT_SENT_STEPS = STEPS_PER_TURN / 4000;

/** Bounds the mock's memory when cycles run for hours; the oldest attempts go first. */
export const MAX_LOG_ENTRIES = 100_000;

export class DeliveryEngine {
	/** The log as a ring: entry i (counting from the first since the last clear) is at i % MAX_LOG_ENTRIES. */
	private log: DeliveryLogEntry[] = [];
	private logged = 0;
	private readonly timers = new Set<ReturnType<typeof setTimeout>>();
	private cancel = new AbortController();
	/** Bumped by reset(), so attempts already in flight do not log into the new state. */
	private generation = 0;
	private pending = 0;
	private readonly pendingByAccount = new Map<string, number>();
	private readonly maxQueued: number;
	private readonly maxQueuedPerAccount: number;
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
		this.maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
		this.maxQueuedPerAccount = options.maxQueuedPerAccount ?? DEFAULT_MAX_QUEUED_PER_ACCOUNT;
	}

	/**
	 * Queues the envelopes for a cycle's events and returns them, in sending order (those over a cap are logged `not_sent` instead).
	 * The work is counted in `work` (a delivery and an envelope written), which pauses once a turn's share is spent.
	 */
	async dispatch(events: readonly CycleEvent[], work: Work = new Work()): Promise<WebhookEvent[]> {
		const envelopes: WebhookEvent[] = [];
		const notSent = new Map<string, DeliveryLogEntry & { count: number }>();
		const spacing = LIMITS.webhookBatchSpacingMs * this.timeScale;
		for (const event of events) {
			const settings = this.options.settings.subscribedTo(event.account_id, event.event_type);
			if (settings.length === 0) continue;
			const organizationId = this.options.organizationIdOf(event.account_id);
			for (const setting of settings) {
				const full = this.overCap(event.account_id);
				if (full !== undefined) {
					const key = `${setting.webhook_id} ${event.event_type} ${full}`;
					const entry = notSent.get(key);
					if (entry !== undefined) entry.count += 1;
					else notSent.set(key, this.notSentEntry(setting.webhook_id, setting.url, event, full));
					await work.spend(NOT_SENT_STEPS);
					continue;
				}
				const envelope = buildEnvelope(event, setting.webhook_id, organizationId, this.nowSeconds());
				envelopes.push(envelope);
				const now = performance.now();
				const slot = Math.max(now, this.nextSlotAt);
				this.nextSlotAt = slot + spacing;
				this.pending += 1;
				this.pendingByAccount.set(event.account_id, (this.pendingByAccount.get(event.account_id) ?? 0) + 1);
				const delivery = {
					envelope,
					body: JSON.stringify(envelope),
					url: setting.url,
					accountId: event.account_id,
				};
				this.later(slot - now, () => this.attempt(delivery, 1));
				await work.spend(QUEUED_STEPS);
			}
		}
		for (const entry of notSent.values()) this.record({ ...entry, error: `not sent (${entry.count} of this cycle's deliveries): ${entry.error}` });
		return envelopes;
	}

	/** Every attempt so far (the last MAX_LOG_ENTRIES), oldest first. */
	deliveries(): DeliveryLogEntry[] {
		const kept = Math.min(this.logged, MAX_LOG_ENTRIES);
		const out: DeliveryLogEntry[] = [];
		for (let i = this.logged - kept; i < this.logged; i++) out.push(this.log[i % MAX_LOG_ENTRIES]);
		return out;
	}

	/** Deliveries waiting or between retries: all, and one account's. */
	queued(accountId?: string): number {
		return accountId === undefined ? this.pending : (this.pendingByAccount.get(accountId) ?? 0);
	}

	/** Puts back a saved log (a state folder on start); deliveries that were still queued are not resumed. */
	restoreLog(entries: readonly DeliveryLogEntry[]): void {
		this.log = entries.slice(-MAX_LOG_ENTRIES);
		this.logged = this.log.length;
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
		this.log = [];
		this.logged = 0;
		this.nextSlotAt = 0;
		this.pending = 0;
		this.pendingByAccount.clear();
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
		const left = (this.pendingByAccount.get(delivery.accountId) ?? 1) - 1;
		if (left === 0) this.pendingByAccount.delete(delivery.accountId);
		else this.pendingByAccount.set(delivery.accountId, left);
		if (this.pending === 0) this.wakeIdleWaiters();
	}

	/** Which cap a new delivery of the account's would cross (the `not_sent` reason), or undefined. */
	private overCap(accountId: string): string | undefined {
		if (this.pending >= this.maxQueued) {
			return `the delivery queue is full (${this.maxQueued} deliveries queued, the cap for all accounts; --max-queued-deliveries)`;
		}
		if ((this.pendingByAccount.get(accountId) ?? 0) >= this.maxQueuedPerAccount) {
			return `the account's delivery queue is full (${this.maxQueuedPerAccount} deliveries queued, the cap per account; --max-queued-deliveries-per-account)`;
		}
		return undefined;
	}

	/** The first of a cycle's deliveries not sent to the webhook for this event type; `count` grows with the others. */
	private notSentEntry(webhookId: string, url: string, event: CycleEvent, reason: string): DeliveryLogEntry & { count: number } {
		return {
			webhook_event_id: null,
			webhook_id: webhookId,
			account_id: event.account_id,
			event_type: event.event_type,
			url,
			attempt: 0,
			started_at: Date.now(),
			duration_ms: 0,
			status: null,
			error: reason,
			outcome: 'not_sent',
			count: 1,
		};
	}

	private record(entry: DeliveryLogEntry): void {
		this.log[this.logged % MAX_LOG_ENTRIES] = entry;
		this.logged++;
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
