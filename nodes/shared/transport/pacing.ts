/**
 * Client-side pacing per credential, shared by every execution in this n8n
 * process (hence module state: one budget per API account, as the service counts it).
 *
 * Once the service reports its budget (X-RateLimit-Remaining / -Reset, or
 * Retry-After on a 429) the pacer follows what it last said. Until then, calls
 * the documented limit covers get the credential's Requests per Minute (the
 * documented 60 unless the account's limit was raised) per sliding minute; others
 * (the app URL, see CHOICES.rateLimitAppliesToAppUrl) are not held back.
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
	/** Requests counted here whose answer has not come back yet. */
	inFlight: number;
}

const budgets = new Map<string, Budget>();

function budgetOf(key: string): Budget {
	let budget = budgets.get(key);
	if (!budget) {
		budget = { sent: [], reported: false, inFlight: 0 };
		budgets.set(key, budget);
	}
	return budget;
}

/**
 * Waits until one more request fits in the budget, then counts it.
 * `documentedLimit`: whether the per-minute limit applies until the service reports its own;
 * `perMinute`: that limit.
 */
export async function waitForTurn(key: string, documentedLimit: boolean, perMinute: number = LIMITS.requestsPerMinute): Promise<void> {
	const budget = budgetOf(key);
	// Re-read after every wait: another request may have brought the service's own budget meanwhile.
	const fallback = () => documentedLimit && !budget.reported;
	for (;;) {
		const now = Date.now();
		const wait = waitNeeded(budget, now, fallback(), perMinute);
		if (wait <= 0) break;
		await sleep(wait);
	}
	if (budget.remaining !== undefined) budget.remaining--;
	if (fallback()) budget.sent.push(Date.now());
	budget.inFlight++;
}

/** The request counted by the last waitForTurn has its answer (or failed): call once per waitForTurn, after recordBudget. */
export function requestDone(key: string): void {
	budgetOf(key).inFlight--;
}

function waitNeeded(budget: Budget, now: number, fallback: boolean, perMinute: number): number {
	if (budget.resetAt !== undefined && now >= budget.resetAt) {
		budget.remaining = undefined;
		budget.resetAt = undefined;
	}
	if (budget.remaining !== undefined && budget.resetAt !== undefined) {
		return budget.remaining > 0 ? 0 : budget.resetAt - now;
	}
	if (!fallback) return 0;
	while (budget.sent.length > 0 && budget.sent[0] <= now - WINDOW_MS) budget.sent.shift();
	if (budget.sent.length < perMinute) return 0;
	// A lowered limit may leave more sends in the window than it allows: wait for the one that makes room.
	return budget.sent[budget.sent.length - perMinute] + WINDOW_MS - now;
}

/**
 * Takes the service's view of the budget from a response's headers. The other
 * requests still in flight may not be in the service's count yet: they are
 * taken off what it reports, so that asking ahead (pages/collect.ts) or parallel
 * executions never overdraw the budget.
 */
export function recordBudget(key: string, headers: Record<string, unknown>, status: number): void {
	const budget = budgetOf(key);
	const now = Date.now();
	const remaining = numberHeader(headers, 'x-ratelimit-remaining');
	const reset = numberHeader(headers, 'x-ratelimit-reset');
	const retryAfter = retryAfterSeconds(headers, now);
	if (status === 429 && retryAfter !== undefined) {
		budget.remaining = 0;
		budget.resetAt = now + Math.min(retryAfter * 1000, RETRY_POLICY.maxWaitMs);
	} else if (remaining !== undefined && reset !== undefined) {
		budget.remaining = Math.max(0, remaining - Math.max(0, budget.inFlight - 1));
		budget.resetAt = now + reset * 1000;
		budget.reported = true;
	}
}

/** Whether the last 429 left a wait in the budget (else the caller backs off itself). */
export function hasServerWait(key: string): boolean {
	const budget = budgetOf(key);
	return budget.remaining === 0 && budget.resetAt !== undefined && budget.resetAt > Date.now();
}

function headerText(headers: Record<string, unknown>, name: string): string | undefined {
	const raw = headers[name];
	const first: unknown = Array.isArray(raw) ? raw[0] : raw;
	const text = first === undefined || first === null ? '' : String(first).trim();
	return text === '' ? undefined : text;
}

function numberHeader(headers: Record<string, unknown>, name: string): number | undefined {
	const text = headerText(headers, name);
	const value = Number(text);
	return text === undefined || !Number.isFinite(value) || value < 0 ? undefined : value;
}

/** Retry-After is either seconds or an HTTP date (RFC 9110); a date in the past means now. */
function retryAfterSeconds(headers: Record<string, unknown>, now: number): number | undefined {
	const seconds = numberHeader(headers, 'retry-after');
	if (seconds !== undefined) return seconds;
	const text = headerText(headers, 'retry-after');
	const date = text === undefined ? NaN : Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
