// Subscriber upload is bounded per account (LIMITS.maxSubscribersPerAccount): an upload that would pass the cap adds none and answers the upload's error; one that fits still works.
import { describe, expect, it } from 'vitest';
import { LIMITS, ENDPOINTS } from '../src/base/contract.mts';
import { APP_URL, call, DEMO_TOKEN, useMock } from './harness.mts';

const mock = useMock();
const upload = (emails: string[]) => call(ENDPOINTS.subscriberUpload.path, { base: APP_URL, token: null, method: 'POST', body: { email_addresses: emails.join(','), access_token: DEMO_TOKEN } });

describe('subscribers per account', () => {
	it(`at most ${LIMITS.maxSubscribersPerAccount}: an upload past it adds none and says why`, { timeout: 120_000 }, async () => {
		const { store } = mock.service;
		const room = LIMITS.maxSubscribersPerAccount - store.subscriberCount('acc_demo') - 1;
		await store.addSubscribers(Array.from({ length: room }, (_, i) => ({ account_id: 'acc_demo', email: `filled${i}@example.org`, tags: [], created_at: 0 })));
		const full = await upload(['one@example.org', 'two@example.org']);
		expect(full.status).toBe(400);
		expect((full.json as { responseText: string }).responseText).toBe(
			`Error 'This account has ${LIMITS.maxSubscribersPerAccount - 1} subscribers and the upload adds 2: the mock holds at most ${LIMITS.maxSubscribersPerAccount} per account (none of this upload was added; POST /__mock/reset empties the list)'`,
		);
		expect(store.isSubscribed('acc_demo', 'one@example.org')).toBe(false);
		// Already subscribed addresses do not count; the last place is taken.
		expect((await upload(['filled0@example.org', 'one@example.org'])).status).toBe(200);
		expect(store.subscriberCount('acc_demo')).toBe(LIMITS.maxSubscribersPerAccount);
		// Another account has its own room.
		const second = await call(ENDPOINTS.subscriberUpload.path, { base: APP_URL, token: null, method: 'POST', body: { email_addresses: 'x@example.org', access_token: 'second-token-job-signals' } });
		expect(second.status).toBe(200);
	});
});
