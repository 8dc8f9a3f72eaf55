// Subscriber upload: validation, no duplicates, tags, the 100 limit, partial failure, errors, per-account isolation.
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { LIMITS, ENDPOINTS, subscriberUploadErrorSchema } from '../src/base/contract.mts';
import { APP_URL, call, DEMO_TOKEN, SECOND_TOKEN, useMock } from './harness.mts';

const mock = useMock();
const emptySchema = z.object({}).strict();

const upload = (body: unknown) => call(ENDPOINTS.subscriberUpload.path, { method: 'POST', base: APP_URL, token: null, body });
const emailsOf = (accountId: string) => mock.service.store.subscribersOf(accountId).map((s) => s.email).sort();

async function expectOk(body: unknown): Promise<void> {
	const answer = await upload(body);
	expect(answer.status).toBe(200);
	emptySchema.parse(answer.json);
}

async function expectUploadError(body: unknown, reason: RegExp): Promise<void> {
	const answer = await upload(body);
	expect(answer.status).toBe(400);
	const { responseText } = subscriberUploadErrorSchema.strict().parse(answer.json);
	expect(responseText).toMatch(reason);
}

describe('subscriber upload', () => {
	it('adds valid addresses, lower-cased, subscribed to all the account\'s job tags, with no Authorization header', async () => {
		const before = emailsOf('acc_demo');
		await expectOk({ email_addresses: 'new.one@example.com, Second@Example.ORG', access_token: DEMO_TOKEN });
		expect(emailsOf('acc_demo')).toEqual([...before, 'new.one@example.com', 'second@example.org'].sort());
		const demo = mock.service.accounts().find((a) => a.account_id === 'acc_demo');
		for (const s of mock.service.store.subscribersOf('acc_demo')) expect(s.tags).toEqual(demo?.job_tags);
	});

	it('never adds an address twice, whatever its case, within a call or across calls', async () => {
		const existing = emailsOf('acc_demo')[0];
		const before = emailsOf('acc_demo');
		await expectOk({ email_addresses: `${existing.toUpperCase()}, twice@example.com, TWICE@example.com`, access_token: DEMO_TOKEN });
		await expectOk({ email_addresses: 'twice@example.com', access_token: DEMO_TOKEN });
		expect(emailsOf('acc_demo')).toEqual([...before, 'twice@example.com'].sort());
	});

	it('a partial failure still answers 200 {} and adds the valid addresses only', async () => {
		const before = emailsOf('acc_demo');
		await expectOk({ email_addresses: 'good@example.com,not-an-address,a@b,two words@example.com,@example.com', access_token: DEMO_TOKEN });
		expect(emailsOf('acc_demo')).toEqual([...before, 'good@example.com'].sort());
	});

	it('accepts 100 addresses and refuses 101 with nothing added', async () => {
		const list = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`).join(',');
		const before = emailsOf('acc_demo').length;
		await expectUploadError({ email_addresses: list(LIMITS.maxAddressesPerUpload + 1, 'over'), access_token: DEMO_TOKEN }, /At most 100/);
		expect(emailsOf('acc_demo')).toHaveLength(before);
		await expectOk({ email_addresses: list(LIMITS.maxAddressesPerUpload, 'max'), access_token: DEMO_TOKEN });
		expect(emailsOf('acc_demo')).toHaveLength(before + LIMITS.maxAddressesPerUpload);
	});

	it('answers 400 responseText for bad JSON, a missing or wrong access_token, no address and no valid address', async () => {
		await expectUploadError('{"email_addresses": ', /must be JSON/);
		await expectUploadError('', /must be JSON/);
		await expectUploadError({ email_addresses: 'a@example.com' }, /access_token/);
		await expectUploadError({ email_addresses: 'a@example.com', access_token: '' }, /access_token/);
		await expectUploadError({ email_addresses: 'a@example.com', access_token: 'wrong' }, /Invalid access_token/);
		await expectUploadError({ email_addresses: ['a@example.com'], access_token: DEMO_TOKEN }, /email_addresses/);
		await expectUploadError({ access_token: DEMO_TOKEN }, /email_addresses/);
		await expectUploadError({ email_addresses: ' , ,', access_token: DEMO_TOKEN }, /No e-mail addresses/);
		await expectUploadError({ email_addresses: 'nope, also nope', access_token: DEMO_TOKEN }, /No valid e-mail address/);
		await expectUploadError([], /access_token|body/);
		await expectUploadError(null, /body|Missing/);
	});

	it('keeps each account\'s list apart, and tags follow the uploading account', async () => {
		const demoBefore = emailsOf('acc_demo');
		await expectOk({ email_addresses: 'shared@example.com', access_token: SECOND_TOKEN });
		expect(emailsOf('acc_demo')).toEqual(demoBefore);
		await expectOk({ email_addresses: 'shared@example.com', access_token: DEMO_TOKEN });
		const second = mock.service.store.subscribersOf('acc_second').find((s) => s.email === 'shared@example.com');
		const demo = mock.service.store.subscribersOf('acc_demo').find((s) => s.email === 'shared@example.com');
		expect(second?.tags).toEqual(mock.service.accounts()[1].job_tags);
		expect(demo?.tags).toEqual(mock.service.accounts()[0].job_tags);
		expect(second?.tags).not.toEqual(demo?.tags);
	});
});
