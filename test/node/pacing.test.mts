// The pacer alone, on fake time: the 60-per-minute fallback, and following what the service reports.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordBudget, requestDone, waitForTurn } from '../../nodes/shared/transport/pacing.ts';

let key = 0;
const freshKey = () => `test-account-${key++}`;

/** Resolves how many ms of fake time `waitForTurn` took. */
async function timed(account: string, documentedLimit = true, perMinute?: number): Promise<number> {
	const start = Date.now();
	const turn = waitForTurn(account, documentedLimit, perMinute);
	await vi.runAllTimersAsync();
	await turn;
	return Date.now() - start;
}

describe('pacing', () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it('without reports from the service: 60 requests per sliding minute, then a wait for the oldest to leave the window', async () => {
		const account = freshKey();
		for (let i = 0; i < 60; i++) {
			expect(await timed(account)).toBe(0);
			vi.advanceTimersByTime(100);
		}
		// The first request went out 6 s ago: the 61st waits the other 54 s.
		expect(await timed(account)).toBe(54_000);
		expect(await timed(account)).toBe(100);
	});

	it('the credential\'s Requests per Minute replaces the documented 60 while the service reports no budget', async () => {
		const slow = freshKey();
		for (let i = 0; i < 3; i++) expect(await timed(slow, true, 3)).toBe(0);
		expect(await timed(slow, true, 3)).toBe(60_000);
		const fast = freshKey();
		for (let i = 0; i < 120; i++) expect(await timed(fast, true, 120)).toBe(0);
		expect(await timed(fast, true, 120)).toBe(60_000);
	});

	it('follows X-RateLimit-Remaining / -Reset once the service reports them', async () => {
		const account = freshKey();
		await timed(account);
		recordBudget(account, { 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '15' }, 200);
		expect(await timed(account)).toBe(0);
		expect(await timed(account)).toBe(0);
		expect(await timed(account)).toBe(15_000);
		// After the reset the service's word is gone until the next answer, and it is not the 60/min fallback.
		for (let i = 0; i < 100; i++) expect(await timed(account)).toBe(0);
	});

	it('a reported budget is taken as not yet counting the other requests still in flight', async () => {
		const account = freshKey();
		// Two calls out (a walk asking one page ahead); the first one's answer says 2 remain.
		await timed(account);
		await timed(account);
		recordBudget(account, { 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '15' }, 200);
		requestDone(account);
		// The second call may not be in that count: one more goes now, the next waits for the reset.
		expect(await timed(account)).toBe(0);
		expect(await timed(account)).toBe(15_000);
	});

	it('a 429 with Retry-After holds the next request that long; budgets are per account', async () => {
		const account = freshKey();
		const other = freshKey();
		recordBudget(account, { 'retry-after': '3' }, 429);
		expect(await timed(other)).toBe(0);
		expect(await timed(account)).toBe(3000);
	});

	it('calls outside the documented limit (the app URL) are not held back until the service reports a budget', async () => {
		const account = freshKey();
		for (let i = 0; i < 200; i++) expect(await timed(account, false)).toBe(0);
		recordBudget(account, { 'retry-after': '2' }, 429);
		expect(await timed(account, false)).toBe(2000);
		recordBudget(account, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' }, 200);
		expect(await timed(account, false)).toBe(5000);
	});

	it('reads Retry-After as seconds or as an HTTP date', async () => {
		vi.setSystemTime(Date.UTC(2026, 10, 22, 12, 0, 0));
		const account = freshKey();
		recordBudget(account, { 'retry-after': new Date(Date.now() + 4000).toUTCString() }, 429);
		expect(await timed(account)).toBe(4000);
		recordBudget(account, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }, 429);
		expect(await timed(account)).toBe(0);
	});

	it('ignores headers that are not numbers or dates', async () => {
		const account = freshKey();
		recordBudget(account, { 'x-ratelimit-remaining': 'soon', 'x-ratelimit-reset': '-1', 'retry-after': 'later' }, 429);
		expect(await timed(account)).toBe(0);
	});
});
