// Per-account rate limit: 429 with Retry-After and X-RateLimit-* past the budget, separate budgets, app URL exempt.
import { describe, expect, it } from 'vitest';
import { CHOICES, LIMITS, MOCK_CONTROL_PATHS, ENDPOINTS, collectionsEnvelopeSchema, webhookSettingsEnvelopeSchema } from '../src/base/contract.mts';
import { APP_URL, call, DEMO_TOKEN, expectApiError, SECOND_TOKEN, SMALL, useMock } from './harness.mts';

const LIMIT = 3;
// A 30 s window: every "within one window" assertion below holds however slow a loaded machine makes the calls
// (a short window could refill the budget mid-test). The window's reset is in rate-limit-window.test.mts.
useMock({ ...SMALL, rateLimit: LIMIT, timeScale: 0.5 });

const H = CHOICES.rateLimitHeaderNames;
async function spend(token: string, n: number): Promise<number[]> {
	const statuses: number[] = [];
	for (let i = 0; i < n; i++) statuses.push((await call('/collections', { token })).status);
	return statuses;
}

describe('rate limit', () => {
	it('counts down in X-RateLimit-* headers, then answers 429 with Retry-After and the API error body', async () => {
		expect(LIMITS.requestsPerMinute).toBe(60);
		for (let i = 1; i <= LIMIT; i++) {
			const answer = await call('/collections');
			expect(answer.status).toBe(200);
			collectionsEnvelopeSchema.strict().parse(answer.json);
			expect(answer.headers.get(H.limit)).toBe(String(LIMIT));
			expect(answer.headers.get(H.remaining)).toBe(String(LIMIT - i));
			expect(Number(answer.headers.get(H.reset))).toBeGreaterThanOrEqual(1);
			expect(answer.headers.get(H.retryAfter)).toBeNull();
		}
		const refused = await call('/signals/problems');
		expectApiError(refused, 429, /Rate limit/);
		expect(Number(refused.headers.get(H.retryAfter))).toBeGreaterThanOrEqual(1);
		expect(refused.headers.get(H.limit)).toBe(String(LIMIT));
		expect(refused.headers.get(H.remaining)).toBe('0');
		expect(refused.headers.get(H.reset)).toBe(refused.headers.get(H.retryAfter));
	});

	it('keeps one budget per account; failed auth spends none', async () => {
		for (let i = 0; i < 5; i++) expectApiError(await call('/collections', { token: 'nope' }), 400);
		expect(await spend(DEMO_TOKEN, LIMIT + 1)).toEqual([200, 200, 200, 429]);
		expect(await spend(SECOND_TOKEN, LIMIT + 1)).toEqual([200, 200, 200, 429]);
	});

	it('does not apply to the app URL (subscriber upload, webhook settings) nor to the control routes, which spend no budget', async () => {
		for (let i = 0; i < 2 * LIMIT; i++) {
			const upload = await call(ENDPOINTS.subscriberUpload.path, { base: APP_URL, method: 'POST', token: null, body: { email_addresses: `u${i}@example.com`, access_token: DEMO_TOKEN } });
			expect(upload.status).toBe(200);
			expect(upload.headers.get(H.limit)).toBeNull();
			const settings = await call(ENDPOINTS.listWebhooks.path, { base: APP_URL });
			expect(settings.status).toBe(200);
			webhookSettingsEnvelopeSchema.strict().parse(settings.json);
			expect((await call(MOCK_CONTROL_PATHS.accounts, { base: APP_URL, token: null })).status).toBe(200);
		}
		expect(await spend(DEMO_TOKEN, LIMIT + 1)).toEqual([200, 200, 200, 429]);
	});

	it('GET /__mock/accounts shows each budget as it stands (rate_limit), without spending any; a reset makes them whole', async () => {
		type Budget = { limit: number; remaining: number; resets_in_ms: number | null };
		const budgets = async () => {
			const { data } = (await call(MOCK_CONTROL_PATHS.accounts, { base: APP_URL, token: null })).json as { data: { account_id: string; rate_limit: Budget }[] };
			return Object.fromEntries(data.map((a) => [a.account_id, a.rate_limit]));
		};
		const whole = { limit: LIMIT, remaining: LIMIT, resets_in_ms: null };
		expect(await budgets()).toEqual({ acc_demo: whole, acc_second: whole, acc_volume: whole });
		expect(await spend(DEMO_TOKEN, 2)).toEqual([200, 200]);
		const { acc_demo, acc_second } = await budgets();
		expect(acc_demo).toEqual({ limit: LIMIT, remaining: LIMIT - 2, resets_in_ms: expect.any(Number) });
		// The window is 60 s × timeScale 0.5.
		expect(acc_demo.resets_in_ms).toBeGreaterThan(0);
		expect(acc_demo.resets_in_ms).toBeLessThanOrEqual(30_000);
		expect(acc_second).toEqual(whole);
		// Reading the budgets spent nothing: one call left.
		expect(await spend(DEMO_TOKEN, 2)).toEqual([200, 429]);
		expect((await budgets()).acc_demo).toMatchObject({ remaining: 0 });
		await call(MOCK_CONTROL_PATHS.reset, { base: APP_URL, token: null, method: 'POST' });
		expect((await budgets()).acc_demo).toEqual(whole);
	});
});
