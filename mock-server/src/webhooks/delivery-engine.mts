/**
 * The webhook delivery engine: turns a cycle's events into
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
 *
 * Every time it reads and every wait it makes is on the service's clock (clock.mts): a test that
 * freezes it holds the queue and the retries until it advances the clock.
 *
 * Receiver knobs, for testing a receiver the hard ways (the envelopes come from KeptEnvelopes,
 * each delivery is logged with its `origin`): `redeliver` one envelope, `sendCopies` of one,
 * `reorder` a batch (the last one, reversed, or listed envelopes in the listed order), and the
 * `failures` rules that fail a receiver's next attempts (failure-rules.mts).
 */
import { LIMITS, type WebhookEvent } from '../base/contract.mts';
import type { ClockTimer, MockClock } from '../base/clock.mts';
import { DeliveryKnobError, queuedDelivery, type Delivery, type DeliveryOrigin, type QueuedDelivery } from './delivery.mts';
import { DeliveryQueue } from './delivery-queue.mts';
import { buildEnvelope, type CycleEvent } from './envelope.mts';
import { failedBy, FailureRules } from './failure-rules.mts';
import { KeptEnvelopes } from './kept-envelopes.mts';
import { sendAttempt, type AttemptResult } from './send-attempt.mts';
import { STEPS_PER_TURN, Work } from '../base/work.mts';
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
	/** The clock's time at the start of the attempt, milliseconds since the epoch. */
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
	/** How the delivery came about: a cycle's or chosen event's, or a receiver knob's. */
	origin: DeliveryOrigin;
	/** Only on an attempt a failure rule failed (failure-rules.mts). */
	injected?: true;
}

export interface DeliveryEngineOptions {
	settings: WebhookSettingsStore;
	/** The `organization_id` put in the envelopes of an account's events. */
	organizationIdOf: (accountId: string) => string;
	/** Multiplies every delay and timeout; must be > 0. Default 1. */
	timeScale?: number;
	/** Envelope and log times, the spacing and the retries' waits. */
	clock: MockClock;
	/** The most deliveries queued (waiting or between retries) at once, all accounts together. Default DEFAULT_MAX_QUEUED. */
	maxQueued?: number;
	/** The most of one account's. Default DEFAULT_MAX_QUEUED_PER_ACCOUNT. */
	maxQueuedPerAccount?: number;
}

/** About 17 MB of queued deliveries; at the spec's one second apart, 2.8 hours of sending. */
export const DEFAULT_MAX_QUEUED = 10_000;
export const DEFAULT_MAX_QUEUED_PER_ACCOUNT = 5_000;

/** Copies one knob call may ask for. */
export const MAX_COPIES = 100;
/** Envelopes one reorder may list. */
export const MAX_REORDERED = 1000;

/** A queued delivery (an envelope, its JSON, a timer) costs ~5–10 µs here; one counted not_sent under 1 µs (work.mts steps). */
const QUEUED_STEPS = STEPS_PER_TURN / 400;
const NOT_SENT_STEPS = STEPS_PER_TURN / 4000;

/** Bounds the mock's memory when cycles run for hours; the oldest attempts go first. */
export const MAX_LOG_ENTRIES = 100_000;

export class DeliveryEngine {
	/** The log as a ring: entry i (counting from the first since the last clear) is at i % MAX_LOG_ENTRIES. */
	private log: DeliveryLogEntry[] = [];
	private logged = 0;
	/** Retries and copies sent at once (the batch queue has its own timer, `drain`). */
	private readonly timers = new Set<ClockTimer>();
	private readonly queue = new DeliveryQueue();
	private drain: ClockTimer | undefined;
	/** When (the clock's elapsed ms) the batch queue last sent: the next goes a spacing later. */
	private lastSlotAt = Number.NEGATIVE_INFINITY;
	private readonly kept = new KeptEnvelopes();
	/** The rules that fail a receiver's next attempts. */
	readonly failures = new FailureRules();
	private cancel = new AbortController();
	/** Bumped by reset(), so attempts already in flight do not log into the new state. */
	private generation = 0;
	private pending = 0;
	private readonly pendingByAccount = new Map<string, number>();
	private readonly maxQueued: number;
	private readonly maxQueuedPerAccount: number;
	private idleWaiters: Array<() => void> = [];
	private readonly timeScale: number;
	private readonly clock: MockClock;
	/** Told of every logged attempt, so a state folder can save it. */
	onRecord?: (entry: DeliveryLogEntry) => void;

	constructor(private readonly options: DeliveryEngineOptions) {
		const timeScale = options.timeScale ?? 1;
		if (!Number.isFinite(timeScale) || timeScale <= 0) {
			throw new RangeError(`timeScale must be a number above 0, got ${timeScale}`);
		}
		this.timeScale = timeScale;
		this.clock = options.clock;
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
				const envelope = buildEnvelope(event, setting.webhook_id, organizationId, this.clock.nowSeconds());
				envelopes.push(envelope);
				const delivery: Delivery = {
					envelope,
					body: JSON.stringify(envelope),
					url: setting.url,
					accountId: event.account_id,
					origin: 'cycle',
				};
				this.kept.keep(delivery);
				this.count(delivery.accountId);
				this.enqueue(delivery);
				await work.spend(QUEUED_STEPS);
			}
		}
		for (const entry of notSent.values()) this.record({ ...entry, error: `not sent (${entry.count} of this cycle's deliveries): ${entry.error}` });
		this.kept.setLastBatch(envelopes.map((envelope) => envelope.webhook_event_id));
		return envelopes;
	}

	/**
	 * One more delivery of a kept envelope (the same bytes, to the URL it was made for, whether or not
	 * the setting still exists), queued behind the batches, retried like any. DeliveryKnobError: 404, 409.
	 */
	redeliver(webhookEventId: string): QueuedDelivery[] {
		const delivery: Delivery = { ...this.kept.get(webhookEventId), origin: 'redelivery' };
		this.makeRoom([delivery.accountId]);
		this.count(delivery.accountId);
		this.enqueue(delivery);
		return [queuedDelivery(delivery)];
	}

	/**
	 * `copies` more deliveries of a kept envelope (1–MAX_COPIES): queued one per spacing like a batch, or with
	 * `atOnce` all started together (a race for the receiver's dedupe). Each is retried like any. DeliveryKnobError: 400, 404, 409.
	 */
	sendCopies(webhookEventId: string, copies: number, { atOnce = false }: { atOnce?: boolean } = {}): QueuedDelivery[] {
		if (!(Number.isInteger(copies) && copies >= 1 && copies <= MAX_COPIES)) {
			throw new DeliveryKnobError(400, `copies must be a whole number from 1 to ${MAX_COPIES}, got ${copies}`);
		}
		const kept = this.kept.get(webhookEventId);
		this.makeRoom(Array.from({ length: copies }, () => kept.accountId));
		return Array.from({ length: copies }, () => {
			const delivery: Delivery = { ...kept, origin: 'copy' };
			this.count(delivery.accountId);
			if (atOnce) this.later(0, () => this.attempt(delivery, 1));
			else this.enqueue(delivery);
			return queuedDelivery(delivery);
		});
	}

	/**
	 * Sends kept envelopes as one batch in a new order: the listed ones in the listed order (1–MAX_REORDERED, each once),
	 * or without a list the last batch reversed. An envelope with a delivery still waiting in the queue (a cycle's, or a
	 * knob's not yet attempted) has that delivery moved (the receiver gets it once, in the new order); one with none waiting
	 * goes again. The batch takes the queue place of the first one moved (else it queues behind the rest). DeliveryKnobError: 400, 404, 409.
	 */
	reorder(webhookEventIds?: readonly string[]): QueuedDelivery[] {
		const ids = webhookEventIds ?? this.kept.lastBatch().reverse();
		if (webhookEventIds === undefined && ids.length === 0) {
			throw new DeliveryKnobError(404, 'No batch to reorder: no cycle or event has made a delivery since the last reset (or its envelopes are no longer kept)');
		}
		// The last batch may be longer (up to MAX_KEPT_ENVELOPES): the list's cap is for what a caller sends.
		if (webhookEventIds !== undefined && (ids.length < 1 || ids.length > MAX_REORDERED)) {
			throw new DeliveryKnobError(400, `webhook_event_ids must list 1 to ${MAX_REORDERED} envelopes, got ${ids.length}`);
		}
		const listed = new Set(ids);
		if (listed.size !== ids.length) throw new DeliveryKnobError(400, 'webhook_event_ids lists an envelope twice: send copies for duplicates');
		const kept = ids.map((id) => this.kept.get(id));
		const waiting = this.queue.waiting(listed);
		this.makeRoom(kept.filter((d) => !waiting.has(d.envelope.webhook_event_id)).map((d) => d.accountId));
		const queued: QueuedDelivery[] = [];
		this.queue.replace(listed, (taken) =>
			kept.map((made) => {
				const moved = taken.get(made.envelope.webhook_event_id);
				const delivery: Delivery = { ...(moved ?? made), origin: 'reordered' };
				if (moved === undefined) this.count(delivery.accountId);
				queued.push(queuedDelivery(delivery, moved !== undefined));
				return delivery;
			}),
		);
		this.startDrain();
		return queued;
	}

	/** Every attempt so far (the last MAX_LOG_ENTRIES), oldest first; with `newest`, only the last that many (it costs that many). */
	deliveries(newest = MAX_LOG_ENTRIES): DeliveryLogEntry[] {
		const kept = Math.min(this.logged, MAX_LOG_ENTRIES, Math.max(0, newest));
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
		// Entries saved before deliveries had an origin all came from cycles.
		this.log = entries.slice(-MAX_LOG_ENTRIES).map((entry) => ({ ...entry, origin: (entry as Partial<DeliveryLogEntry>).origin ?? 'cycle' }));
		this.logged = this.log.length;
	}

	/** Resolves once every queued delivery has been delivered or has failed its last retry. */
	idle(): Promise<void> {
		if (this.pending === 0) return Promise.resolve();
		return new Promise((resolve) => this.idleWaiters.push(resolve));
	}

	/** Cancels queued and in-flight deliveries, clears the log, the kept envelopes and the failure rules. */
	reset(): void {
		this.generation += 1;
		for (const timer of this.timers) this.clock.clearTimeout(timer);
		this.timers.clear();
		this.clock.clearTimeout(this.drain);
		this.drain = undefined;
		this.queue.clear();
		this.kept.clear();
		this.failures.clear();
		this.cancel.abort();
		this.cancel = new AbortController();
		this.log = [];
		this.logged = 0;
		this.lastSlotAt = Number.NEGATIVE_INFINITY;
		this.pending = 0;
		this.pendingByAccount.clear();
		this.wakeIdleWaiters();
	}

	/** Queues a delivery for its first attempt behind the batches. */
	private enqueue(delivery: Delivery): void {
		this.queue.push(delivery);
		this.startDrain();
	}

	/** Sets the batch queue's timer for its head, a spacing after the last one sent (at once if that has passed). */
	private startDrain(): void {
		if (this.drain !== undefined || this.queue.length === 0) return;
		const now = this.clock.elapsed();
		const slot = Math.max(now, this.lastSlotAt + LIMITS.webhookBatchSpacingMs * this.timeScale);
		this.drain = this.clock.setTimeout(() => {
			this.drain = undefined;
			// The planned time, not the (later) time the timer fired: a long batch does not drift.
			this.lastSlotAt = slot;
			const delivery = this.queue.shift();
			if (delivery !== undefined) void this.attempt(delivery, 1);
			this.startDrain();
		}, slot - now);
	}

	/** Counts a delivery as queued until its last attempt. */
	private count(accountId: string): void {
		this.pending += 1;
		this.pendingByAccount.set(accountId, (this.pendingByAccount.get(accountId) ?? 0) + 1);
	}

	/** Refuses (409) a knob's deliveries that would pass a queue cap, before any is queued. */
	private makeRoom(accountIds: readonly string[]): void {
		const byAccount = new Map<string, number>();
		for (const id of accountIds) byAccount.set(id, (byAccount.get(id) ?? 0) + 1);
		if (this.pending + accountIds.length > this.maxQueued) {
			throw new DeliveryKnobError(409, `The delivery queue would pass its cap (${this.pending} of ${this.maxQueued} queued; --max-queued-deliveries): try again once it has drained`);
		}
		for (const [id, more] of byAccount) {
			const queued = this.pendingByAccount.get(id) ?? 0;
			if (queued + more > this.maxQueuedPerAccount) {
				throw new DeliveryKnobError(409, `Account ${id}'s delivery queue would pass its cap (${queued} of ${this.maxQueuedPerAccount} queued; --max-queued-deliveries-per-account): try again once it has drained`);
			}
		}
	}

	private async attempt(delivery: Delivery, attempt: number): Promise<void> {
		const generation = this.generation;
		const startedAt = this.clock.now();
		const rule = this.failures.take(delivery.envelope.webhook_id, delivery.url);
		const sent = rule?.reach_receiver === false
			? undefined
			: await sendAttempt(delivery.url, delivery.body, LIMITS.webhookTimeoutMs * this.timeScale, this.cancel.signal);
		if (generation !== this.generation) return;
		const result = rule === undefined ? (sent as AttemptResult) : failedBy(rule, sent);
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
			origin: delivery.origin,
			...(rule === undefined ? {} : { injected: true as const }),
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
			started_at: this.clock.now(),
			duration_ms: 0,
			status: null,
			error: reason,
			outcome: 'not_sent',
			count: 1,
			origin: 'cycle',
		};
	}

	private record(entry: DeliveryLogEntry): void {
		this.log[this.logged % MAX_LOG_ENTRIES] = entry;
		this.logged++;
		this.onRecord?.(entry);
	}

	private later(delayMs: number, run: () => Promise<void>): void {
		const timer = this.clock.setTimeout(() => {
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
