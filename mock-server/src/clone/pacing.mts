/**
 * Keeps the walk within the account's rate limit, as the API states it: after each answer, the
 * `X-RateLimit-Remaining` budget and `X-RateLimit-Reset` seconds to the window's end; when the budget
 * is spent, the next call waits for the window to end. A 429 (the budget was shared, or the API
 * sends no such headers) waits its `Retry-After` (else the Reset, else a minute) before the call is
 * made again. Also estimates the time the rest of the walk takes at that rate.
 */
import { CHOICES } from '../base/contract.mts';

/** Added to each wait: the API's seconds are rounded, and a timer may fire a little early. */
const MARGIN_MS = 100;
/** The spec's window ("requests per minute"), until the API's headers show another. */
const MINUTE_MS = 60_000;

export interface Pause {
	ms: number;
	why: 'budget' | '429';
}

export class Pacing {
	/** Requests per window (X-RateLimit-Limit), once an answer said. */
	limit: number | undefined;
	private remaining: number | undefined;
	private windowEndsAt = 0;
	private windowMs = MINUTE_MS;
	private answered = 0;
	private answeringMs = 0;

	constructor(private readonly now: () => number = Date.now) {}

	/** How long the next call must wait (0: it may go now). */
	waitBeforeCall(): Pause | undefined {
		if (this.remaining !== 0) return undefined;
		const ms = this.windowEndsAt - this.now();
		if (ms <= 0) {
			// A new window: its budget is unknown until the next answer says it.
			this.remaining = undefined;
			return undefined;
		}
		return { ms, why: 'budget' };
	}

	/** Reads an answer's rate-limit headers; for a 429, how long to wait before the call is made again. */
	afterAnswer(headers: Headers, status: number, tookMs: number): Pause | undefined {
		const names = CHOICES.rateLimitHeaderNames;
		const now = this.now();
		const limit = whole(headers.get(names.limit));
		const remaining = whole(headers.get(names.remaining));
		const reset = whole(headers.get(names.reset));
		if (limit !== undefined) this.limit = limit;
		if (remaining !== undefined && reset !== undefined) {
			// The first call of a window: the seconds to its end are the window's length.
			if (limit !== undefined && remaining === limit - 1 && reset > 0) this.windowMs = reset * 1000;
			this.remaining = remaining;
			this.windowEndsAt = now + reset * 1000 + MARGIN_MS;
		}
		if (status !== 429) {
			this.answered++;
			this.answeringMs += tookMs;
			return undefined;
		}
		const seconds = whole(headers.get(names.retryAfter)) ?? reset ?? this.windowMs / 1000;
		this.remaining = 0;
		this.windowEndsAt = now + seconds * 1000 + MARGIN_MS;
		return { ms: this.windowEndsAt - now, why: '429' };
	}

	/** The time `calls` more calls take at the account's rate (and this walk's time per answer so far). */
	timeLeftMs(calls: number): number {
		const perCall = this.answered === 0 ? 0 : this.answeringMs / this.answered;
		if (calls <= 0) return 0;
		if (this.limit === undefined || this.limit === 0) return calls * perCall;
		const now = this.now();
		const inWindow = this.remaining === undefined || this.windowEndsAt <= now ? this.limit : this.remaining;
		if (calls <= inWindow) return calls * perCall;
		const untilNextWindow = Math.max(0, this.windowEndsAt - now);
		const fullWindows = Math.floor((calls - inWindow - 1) / this.limit);
		const inLastWindow = calls - inWindow - fullWindows * this.limit;
		return untilNextWindow + fullWindows * this.windowMs + inLastWindow * perCall;
	}

	/** "60/min", or "8 per 2 s" when the window is not a minute. */
	rate(): string | undefined {
		if (this.limit === undefined) return undefined;
		return this.windowMs === MINUTE_MS ? `${this.limit} requests/min` : `${this.limit} requests per ${this.windowMs / 1000} s`;
	}
}

function whole(value: string | null): number | undefined {
	return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}
