// The mock's webhook settings API (emulating the web application's settings page), in-process.
import { describe, expect, it } from 'vitest';
import { webhookSettingSchema, webhookSettingsEnvelopeSchema } from '../src/base/contract.mts';
import { APP_URL, call as callMock, DEMO_TOKEN, SECOND_TOKEN, useMock } from './harness.mts';

const mock = useMock();
/** The demo account's id (its token: DEMO_TOKEN). */
const DEMO = 'acc_demo';

function setup() {
	const call = async (method: string, path: string, token: string | null, body?: string) => {
		const answer = await callMock(path, { base: APP_URL, method, token, body });
		return { status: answer.status, json: answer.json };
	};
	return { webhooks: mock.service.webhooks, call };
}

const valid = JSON.stringify({ url: 'https://hooks.example/n8n', event_types: ['job_created', 'signal'] });

describe('webhook settings API', () => {
	it('creates, lists and deletes an account\'s webhooks', async () => {
		const { call } = setup();
		const created = await call('POST', '/api/webhooks', DEMO_TOKEN, valid);
		expect(created.status).toBe(201);
		const setting = webhookSettingSchema.parse(created.json);
		expect(setting).toMatchObject({ url: 'https://hooks.example/n8n', event_types: ['job_created', 'signal'] });

		const listed = await call('GET', '/api/webhooks', DEMO_TOKEN);
		expect(webhookSettingsEnvelopeSchema.parse(listed.json).data).toEqual([setting]);

		expect((await call('DELETE', `/api/webhooks/${setting.webhook_id}`, DEMO_TOKEN)).status).toBe(204);
		expect(webhookSettingsEnvelopeSchema.parse((await call('GET', '/api/webhooks', DEMO_TOKEN)).json).data).toEqual([]);
		expect((await call('DELETE', `/api/webhooks/${setting.webhook_id}`, DEMO_TOKEN)).status).toBe(404);
	});

	it('keeps accounts apart: another account neither lists nor deletes the entry', async () => {
		const { call } = setup();
		const setting = webhookSettingSchema.parse((await call('POST', '/api/webhooks', DEMO_TOKEN, valid)).json);
		expect(webhookSettingsEnvelopeSchema.parse((await call('GET', '/api/webhooks', SECOND_TOKEN)).json).data).toEqual([]);
		expect((await call('DELETE', `/api/webhooks/${setting.webhook_id}`, SECOND_TOKEN)).status).toBe(404);
		expect(webhookSettingsEnvelopeSchema.parse((await call('GET', '/api/webhooks', DEMO_TOKEN)).json).data).toEqual([
			setting,
		]);
	});

	it('answers the auth error for a missing or unknown token', async () => {
		const { call } = setup();
		for (const token of [null, 'nope']) {
			expect((await call('GET', '/api/webhooks', token)).status).toBe(400);
			expect((await call('POST', '/api/webhooks', token, valid)).status).toBe(400);
			expect((await call('DELETE', '/api/webhooks/wh_x', token)).status).toBe(400);
		}
	});

	it.each([
		['not JSON', '{url:', /must be JSON/],
		['no url', JSON.stringify({ event_types: ['signal'] }), /url/],
		['a non-http url', JSON.stringify({ url: 'ftp://x.example/', event_types: ['signal'] }), /url/],
		['no event type', JSON.stringify({ url: 'https://x.example/', event_types: [] }), /event_types/],
		['an unknown event type', JSON.stringify({ url: 'https://x.example/', event_types: ['job_moved'] }), /event_types/],
		['a non-string secret', JSON.stringify({ url: 'https://x.example/', event_types: ['signal'], secret_key: 1 }), /secret_key/],
		['an array body', '[]', /Invalid webhook setting/],
	])('answers 400 with a reason for %s', async (_name, body, reason) => {
		const { call, webhooks } = setup();
		const response = await call('POST', '/api/webhooks', DEMO_TOKEN, body);
		expect(response.status).toBe(400);
		expect((response.json as { message: string }).message).toMatch(reason);
		expect(webhooks.settings.list(DEMO)).toEqual([]);
	});

	it('stores repeated event types once and keeps an optional secret key', async () => {
		const { call } = setup();
		const body = JSON.stringify({ url: 'http://127.0.0.1:65535/h', event_types: ['signal', 'signal'], secret_key: 's' });
		const setting = webhookSettingSchema.parse((await call('POST', '/api/webhooks', DEMO_TOKEN, body)).json);
		expect(setting.event_types).toEqual(['signal']);
		expect(setting.secret_key).toBe('s');
	});

	it('serves the delivery log at /__mock/deliveries', async () => {
		const { call } = setup();
		expect(await call('GET', '/__mock/deliveries', null)).toEqual({ status: 200, json: { data: [] } });
	});
});
