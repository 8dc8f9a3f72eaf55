// `rateLimitHeaders: false` (`--rate-limit-headers off`): no X-RateLimit-* headers, yet the limit holds and a 429 still carries Retry-After (the CLI flag: cli-conventions.test.mts).
import { describe, expect, it } from 'vitest';
import { CHOICES } from '../src/base/contract.mts';
import { createMockService } from '../src/service.mts';
import { call, expectApiError, SMALL, useMock } from './harness.mts';

const H = CHOICES.rateLimitHeaderNames;
// A 30 s window, so the budget cannot come back within the test on a slow machine.
useMock({ ...SMALL, rateLimit: 2, timeScale: 0.5, rateLimitHeaders: false });

describe('rate-limit headers off', () => {
	it('sends no X-RateLimit-* headers, still refuses past the budget with 429 and Retry-After', async () => {
		for (let i = 0; i < 2; i++) {
			const answer = await call('/collections');
			expect(answer.status).toBe(200);
			for (const name of [H.limit, H.remaining, H.reset, H.retryAfter]) expect(answer.headers.get(name), name).toBeNull();
		}
		const refused = await call('/signals/problems');
		expectApiError(refused, 429, /Rate limit/);
		expect(Number(refused.headers.get(H.retryAfter))).toBeGreaterThanOrEqual(1);
		for (const name of [H.limit, H.remaining, H.reset]) expect(refused.headers.get(name), name).toBeNull();
	});

	it('takes only true or false in-process', async () => {
		await expect(createMockService({ ...SMALL, rateLimitHeaders: 'off' as never })).rejects.toThrow(/rateLimitHeaders must be true or false/);
	});
});
