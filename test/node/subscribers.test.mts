// Subscriber → Upload: batching across items, checks before sending, per-item outcomes, failures.
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { NODE_TYPE, setFaults } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

const upload = (input: Record<string, unknown>[], options: { credentials?: Record<string, string>; onError?: 'continueRegularOutput'; emailAddresses?: string } = {}) =>
	runNode({
		type: NODE_TYPE,
		parameters: { resource: 'subscriber', operation: 'upload', ...(options.emailAddresses ? { emailAddresses: options.emailAddresses } : {}) },
		credentials: { jobSignalsApi: { ...mock.credentials, ...options.credentials } },
		input,
		onError: options.onError,
	});

const uploadCalls = () => mock.requests().filter((r) => new URL(r.url).pathname === '/api/subscribers/upload');
// The seed's own subscribers are on other domains; the tests upload only @example.com addresses.
const uploaded = (accountId: string) =>
	mock.service.store.subscribersOf(accountId).map((s) => s.email).filter((e) => e.endsWith('@example.com')).sort();
const subscribed = () => uploaded(mock.service.accounts()[0].account_id);

describe('Subscriber → Upload', () => {
	it('1,000 addresses in 1,000 items go out in 10 calls of 100, and all are subscribed', async () => {
		const input = Array.from({ length: 1000 }, (_, i) => ({ email: `person${i}@example.com` }));
		const run = await upload(input);
		expect(run.error).toBeUndefined();
		const calls = uploadCalls();
		expect(calls).toHaveLength(10);
		for (const call of calls) {
			const body = (await call.clone().json()) as { email_addresses: string; access_token: string };
			expect(body.email_addresses.split(',')).toHaveLength(100);
			expect(body.access_token).toBe(mock.credentials.apiToken);
		}
		expect(subscribed()).toEqual(input.map((i) => i.email).sort());
		expect(run.items).toHaveLength(1000);
		expect(run.items[7]).toEqual({ json: { uploaded: ['person7@example.com'], invalid: [], duplicates: [] }, pairedItem: { item: 7 } });
	});

	it('is not paced at the API limit: 7,000 addresses go out in 70 calls without a wait for the next minute', async () => {
		// At 60 calls per minute the 61st call would wait about a minute, past this test's 30 s timeout.
		const input = Array.from({ length: 7000 }, (_, i) => ({ email: `bulk${i}@example.com` }));
		const run = await upload(input);
		expect(run.error).toBeUndefined();
		expect(uploadCalls()).toHaveLength(70);
		expect(subscribed()).toHaveLength(7000);
	});

	it('checks addresses first: invalid ones are reported, not sent; repeats in the run are sent once', async () => {
		const run = await upload([
			{ email: 'Ada@Example.com, grace@example.com; not-an-address' },
			{ email: 'ada@example.com' },
			{ email: 'linus@example' },
			{ email: ['alan@example.com', 'grace@example.com'] },
		]);
		expect(run.items.map((i) => i.json)).toEqual([
			{ uploaded: ['Ada@Example.com', 'grace@example.com'], invalid: ['not-an-address'], duplicates: [] },
			{ uploaded: [], invalid: [], duplicates: ['ada@example.com'] },
			{ uploaded: [], invalid: ['linus@example'], duplicates: [] },
			{ uploaded: ['alan@example.com'], invalid: [], duplicates: ['grace@example.com'] },
		]);
		expect(run.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(uploadCalls()).toHaveLength(1);
		expect(subscribed()).toEqual(['ada@example.com', 'alan@example.com', 'grace@example.com']);
	});

	it('an item without an address stops the run before anything is sent, or becomes an error item with continueOnFail', async () => {
		const input = [{ email: 'one@example.com' }, { email: '' }, { email: 'two@example.com' }];
		const stopped = await upload(input);
		expect(stopped.error?.message).toBe('No e-mail address in this item');
		expect(uploadCalls()).toHaveLength(0);

		const continued = await upload(input, { onError: 'continueRegularOutput' });
		expect(continued.items.map((i) => i.json)).toEqual([
			{ uploaded: ['one@example.com'], invalid: [], duplicates: [] },
			{ error: 'No e-mail address in this item' },
			{ uploaded: ['two@example.com'], invalid: [], duplicates: [] },
		]);
		expect(uploadCalls()).toHaveLength(1);
	});

	it('a refused call is a clear error; with continueOnFail the affected items say which addresses failed', async () => {
		const input = [{ email: 'a@example.com' }, { email: 'b@example.com' }];
		const refused = await upload(input, { credentials: { accessToken: 'wrong-key' } });
		expect(refused.error?.message).toBe('Subscriber upload refused: Invalid access_token');
		expect(JSON.stringify(refused.error)).not.toContain('wrong-key');

		const continued = await upload(input, { credentials: { accessToken: 'wrong-key' }, onError: 'continueRegularOutput' });
		expect(continued.items.map((i) => i.json)).toEqual([
			{ uploaded: [], invalid: [], duplicates: [], failed: ['a@example.com'], error: 'Subscriber upload refused: Invalid access_token', errorDescription: 'Invalid access_token', httpCode: '400' },
			{ uploaded: [], invalid: [], duplicates: [], failed: ['b@example.com'], error: 'Subscriber upload refused: Invalid access_token', errorDescription: 'Invalid access_token', httpCode: '400' },
		]);
		expect(subscribed()).toEqual([]);
	});

	it('the access token field, when set, is what goes in the body', async () => {
		await upload([{ email: 'c@example.com' }], { credentials: { accessToken: 'second-token-job-signals' } });
		const body = (await uploadCalls()[0].clone().json()) as { access_token: string };
		expect(body.access_token).toBe('second-token-job-signals');
		expect(uploaded('acc_second')).toEqual(['c@example.com']);
	});

	it('a 500 on a call is retried, and nothing is lost or doubled', async () => {
		await setFaults([{ path: '/api/subscribers/upload', status: 500, times: 1 }]);
		const input = Array.from({ length: 150 }, (_, i) => ({ email: `r${i}@example.com` }));
		const run = await upload(input);
		expect(run.error).toBeUndefined();
		expect(uploadCalls().filter((c) => c.method === 'POST')).toHaveLength(3);
		expect(subscribed()).toEqual(input.map((i) => i.email).sort());
	});
});
