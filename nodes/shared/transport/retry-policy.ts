/**
 * How hard the node tries before it gives up; docs/action-node.md's "Rate limits and retries"
 * mirrors these numbers.
 */
export const RETRY_POLICY = {
	/** 429s in a row on one request before the run fails (each waits Retry-After or backs off). */
	maxRateLimitRetries: 10,
	/** 5xx answers or network errors in a row before the run fails. */
	maxTransientRetries: 3,
	/** First backoff when the service gives no Retry-After; doubled on each retry. */
	firstBackoffMs: 1000,
	/** Ceiling of one backoff or of one Retry-After wait. */
	maxWaitMs: 60_000,
	/** A request with no answer after this long counts as a network error. */
	requestTimeoutMs: 30_000,
} as const;

export function backoffMs(attempt: number): number {
	return Math.min(RETRY_POLICY.firstBackoffMs * 2 ** attempt, RETRY_POLICY.maxWaitMs);
}
