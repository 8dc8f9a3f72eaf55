// What the mock stores stays bounded and clean: webhook settings per account, URL and secret_key length, a URL on a port fetch refuses, subscriber addresses with control or bidi characters, repeated query parameters.
import { describe, expect, it } from 'vitest';
import { LIMITS, ENDPOINTS, webhookSettingSchema } from '../src/base/contract.mts';
import { BLOCKED_PORTS } from '../src/handlers/webhooks.mts';
import { APP_URL, call, DEMO_TOKEN, expectApiError, SECOND_TOKEN, useMock } from './harness.mts';

const mock = useMock();
const createWebhook = (body: unknown, token?: string) => call(ENDPOINTS.listWebhooks.path, { base: APP_URL, method: 'POST', body, token });
const setting = (extra: object = {}) => ({ url: 'https://hooks.example/n8n', event_types: ['signal'], ...extra });

describe('limits', () => {
	it(`refuses a webhook setting past ${LIMITS.maxWebhooksPerAccount} per account (409), and takes one again after a delete`, async () => {
		for (let i = 0; i < LIMITS.maxWebhooksPerAccount; i++) expect((await createWebhook(setting())).status).toBe(201);
		const refused = await createWebhook(setting());
		expectApiError(refused, 409, /At most/);
		expect(mock.service.webhooks.settings.list('acc_demo')).toHaveLength(LIMITS.maxWebhooksPerAccount);
		// Per account: the second account is not affected.
		expect((await createWebhook(setting(), SECOND_TOKEN)).status).toBe(201);
		const first = mock.service.webhooks.settings.list('acc_demo')[0];
		expect((await call(`${ENDPOINTS.listWebhooks.path}/${first.webhook_id}`, { base: APP_URL, method: 'DELETE' })).status).toBe(204);
		expect((await createWebhook(setting())).status).toBe(201);
	});

	it('refuses a webhook URL or secret_key over its length limit, and takes one at the limit', async () => {
		const url = (length: number) => `https://hooks.example/${'p'.repeat(length - 'https://hooks.example/'.length)}`;
		expectApiError(await createWebhook(setting({ url: url(LIMITS.maxWebhookUrlLength + 1) })), 400, /url/);
		expectApiError(await createWebhook(setting({ secret_key: 's'.repeat(LIMITS.maxWebhookSecretKeyLength + 1) })), 400, /secret_key/);
		expect(mock.service.webhooks.settings.list('acc_demo')).toEqual([]);
		const atLimit = await createWebhook(setting({ url: url(LIMITS.maxWebhookUrlLength), secret_key: 's'.repeat(LIMITS.maxWebhookSecretKeyLength) }));
		expect(atLimit.status).toBe(201);
		webhookSettingSchema.strict().parse(atLimit.json);
	});

	it('refuses (400, naming the port) a webhook URL on a port fetch refuses, and takes ports next to them', async () => {
		for (const url of ['http://127.0.0.1:6000/hook', 'https://hooks.example:6665/x', 'http://localhost:6669/', 'http://hooks.example:10080/n8n', 'https://hooks.example:22']) {
			const port = new URL(url).port;
			expectApiError(await createWebhook(setting({ url })), 400, new RegExp(`url: port ${port} is one fetch refuses to connect to`));
		}
		expect(mock.service.webhooks.settings.list('acc_demo')).toEqual([]);
		for (const url of ['http://127.0.0.1:6001/hook', 'https://hooks.example:6664/x', 'http://localhost:10081/', 'http://hooks.example/n8n', 'https://hooks.example:443/x']) {
			expect((await createWebhook(setting({ url }))).status).toBe(201);
		}
	});

	it('every blocked port is one Node\'s fetch refuses as "bad port" (before connecting), so no delivery to it could succeed', async () => {
		for (const port of BLOCKED_PORTS) {
			const error = await fetch(`http://127.0.0.1:${port}/`).then(() => undefined, (e: unknown) => e as Error & { cause?: Error });
			expect(error?.cause?.message, `port ${port}`).toBe('bad port');
		}
	});

	it('never stores a subscriber address with a control or invisible format character, or over 254 characters', async () => {
		const bad = ['nul\u0000byte@example.com', 'bidi\u202Eoverride@example.com', 'zero\u200Bwidth@example.com', 'tab\tinside@example.com', `${'l'.repeat(250)}@example.com`];
		const upload = await call(ENDPOINTS.subscriberUpload.path, { base: APP_URL, method: 'POST', token: null, body: { email_addresses: [...bad, 'clean@example.com'].join(','), access_token: DEMO_TOKEN } });
		expect(upload.status).toBe(200);
		const stored = mock.service.store.subscribersOf('acc_demo').map((s) => s.email);
		expect(stored).toContain('clean@example.com');
		for (const email of stored) {
			expect(email).not.toMatch(/[\p{Cc}\p{Cf}]/u);
			expect(email.length).toBeLessThanOrEqual(254);
		}
	});

	it('answers 400 naming a single-valued query parameter given twice; a repeated parameter (categories) stays allowed', async () => {
		expectApiError(await call('/signals/problems?per_page=10&per_page=1000'), 400, /"per_page": given more than once/);
		expectApiError(await call('/jobs?offset=0&offset=100'), 400, /"offset"/);
		expectApiError(await call('/jobs?search=a&search=b'), 400, /"search"/);
		expect((await call('/jobs?categories=DevOps&categories=Sales')).status).toBe(200);
	});
});
