/**
 * Per-account fixed-window rate limit: `limit` requests per window of
 * 60 s × timeScale. limit 0 turns it off. Header names: CHOICES.rateLimitHeaderNames;
 * X-RateLimit-Reset is the number of seconds until the window resets. With
 * `countHeaders` off (`--rate-limit-headers off`, like a gateway that strips
 * them) answers carry none of the X-RateLimit-* headers, but the limit holds and
 * a 429 still says Retry-After: a client's only hint when to retry.
 */
import { CHOICES } from '../base/contract.mts';

/** An account's budget as the control API shows it (GET /__mock/accounts). */
export interface RateBudget {
	limit: number;
	remaining: number;
	/** Until the window ends and the budget is whole again; null when no window is open (the next call opens one). */
	resets_in_ms: number | null;
}

export interface RateDecision {
	allowed: boolean;
	headers: Record<string, string>;
}

export class RateLimiter {
	private windows = new Map<string, { start: number; count: number }>();

	constructor(
		private readonly limit: number,
		private readonly windowMs: number,
		private readonly now: () => number = Date.now,
		private readonly countHeaders: boolean = true,
	) {}

	get enabled(): boolean {
		return this.limit > 0;
	}

	take(accountId: string): RateDecision {
		if (!this.enabled) return { allowed: true, headers: {} };
		const now = this.now();
		let window = this.windows.get(accountId);
		if (!window || now - window.start >= this.windowMs) {
			window = { start: now, count: 0 };
			this.windows.set(accountId, window);
		}
		const allowed = window.count < this.limit;
		if (allowed) window.count++;
		const resetSeconds = Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
		const names = CHOICES.rateLimitHeaderNames;
		const headers: Record<string, string> = this.countHeaders
			? { [names.limit]: String(this.limit), [names.remaining]: String(this.limit - window.count), [names.reset]: String(resetSeconds) }
			: {};
		if (!allowed) headers[names.retryAfter] = String(resetSeconds);
		return { allowed, headers };
	}

	/** The account's budget now, without taking from it; null when the limit is off. */
	budget(accountId: string): RateBudget | null {
		if (!this.enabled) return null;
		const now = this.now();
		const window = this.windows.get(accountId);
		if (!window || now - window.start >= this.windowMs) return { limit: this.limit, remaining: this.limit, resets_in_ms: null };
		return { limit: this.limit, remaining: this.limit - window.count, resets_in_ms: window.start + this.windowMs - now };
	}

	reset(): void {
		this.windows.clear();
	}
}
