/**
 * Client-side pacing per credential, shared by every execution in this n8n
 * process (hence module state: one budget per API account, as the service counts it).
 *
 * Once the service reports its budget (X-RateLimit-Remaining / -Reset, or
 * Retry-After on a 429) the pacer follows what it last said; a service that
 * never reports one gets the documented 60 requests per sliding minute.
 */
import { sleep } from 'n8n-workflow';
import { LIMITS } from '../contract';
import { RETRY_POLICY } from './retry-policy';

const WINDOW_MS = 60_000;

interface Budget {
	/** Send times inside the last window (fallback pacing). */
	sent: number[];
	/** Whether the service has ever reported its budget (X-RateLimit-*) for this account. */
	reported: boolean;
	/** The service's own count, until its reset time. */
	remaining?: number;
	resetAt?: number;
}

const budgets = new Map<string, Budget>();

function budgetOf(key: string): Budget {
	let budget = budgets.get(key);
	if (!budget) {
		budget = { sent: [], reported: false };
		budgets.set(key, budget);
	}
	return budget;
}

/** Waits until one more request fits in the budget, then counts it. */
export async function waitForTurn(key: string): Promise<void> {
	const budget = budgetOf(key);
	for (;;) {
		const now = Date.now();
		const wait = waitNeeded(budget, now);
		if (wait <= 0) break;
		await sleep(wait);
	}
	if (budget.remaining !== undefined) budget.remaining--;
	if (!budget.reported) budget.sent.push(Date.now());
}

function waitNeeded(budget: Budget, now: number): number {
	if (budget.resetAt !== undefined && now >= budget.resetAt) {
		budget.remaining = undefined;
		budget.resetAt = undefined;
	}
	if (budget.remaining !== undefined && budget.resetAt !== undefined) {
		return budget.remaining > 0 ? 0 : budget.resetAt - now;
	}
	if (budget.reported) return 0;
	while (budget.sent.length > 0 && budget.sent[0] <= now - WINDOW_MS) budget.sent.shift();
	return budget.sent.length < LIMITS.requestsPerMinute ? 0 : budget.sent[0] + WINDOW_MS - now;
}

/** Takes the service's view of the budget from a response's headers. */
export function recordBudget(key: string, headers: Record<string, unknown>, status: number): void {
	const budget = budgetOf(key);
	const now = Date.now();
	const remaining = numberHeader(headers, 'x-ratelimit-remaining');
	const reset = numberHeader(headers, 'x-ratelimit-reset');
	const retryAfter = numberHeader(headers, 'retry-after');
	if (status === 429 && retryAfter !== undefined) {
		budget.remaining = 0;
		budget.resetAt = now + Math.min(retryAfter * 1000, RETRY_POLICY.maxWaitMs);
	} else if (remaining !== undefined && reset !== undefined) {
		budget.remaining = remaining;
		budget.resetAt = now + reset * 1000;
		budget.reported = true;
	}
}

/** Whether the last 429 left a wait in the budget (else the caller backs off itself). */
export function hasServerWait(key: string): boolean {
	const budget = budgetOf(key);
	return budget.remaining === 0 && budget.resetAt !== undefined && budget.resetAt > Date.now();
}

function numberHeader(headers: Record<string, unknown>, name: string): number | undefined {
	const raw = headers[name];
	const value = Number(Array.isArray(raw) ? raw[0] : raw);
	return raw === undefined || !Number.isFinite(value) || value < 0 ? undefined : value;
}
