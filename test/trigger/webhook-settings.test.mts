// The mock's webhook settings API (emulating the web application's settings page).
import { getResponse, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { webhookSettingSchema, webhookSettingsEnvelopeSchema } from '../../contract/schemas';
import { createWebhooks } from '../../mock-server/src/webhooks/index.mts';

const APP = 'http://app.test';
const TOKENS: Record<string, string> = { 'token-a': 'a1', 'token-b': 'a2' };

function setup() {
	const webhooks = createWebhooks({ organizationIdOf: (id) => `org_${id}`, timeScale: 0.01 });
	const handlers = webhooks.handlers(
		async (request) => {
			const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
			const accountId = TOKENS[token];
			return accountId === undefined ? errorResponse(400, 'Missing or invalid API token') : { accountId };
		},
		errorResponse,
	);
	const call = async (method: string, path: string, token: string | null, body?: string) => {
		const headers: Record<string, string> = { 'content-type': 'application/json' };
		if (token !== null) headers.authorization = `Bearer ${token}`;
		const response = await getResponse(handlers, new Request(`${APP}${path}`, { method, headers, body }));
		if (response === undefined) throw new Error(`no handler for ${method} ${path}`);
		const text = await response.text();
		return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
	};
	return { webhooks, call };
}

function errorResponse(status: number, message: string) {
	return HttpResponse.json({ status, error: 'error', message }, { status });
}

const valid = JSON.stringify({ url: 'https://hooks.example/n8n', event_types: ['job_created', 'signal'] });

describe('webhook settings API', () => {
	it('creates, lists and deletes an account\'s webhooks', async () => {
		const { call } = setup();
		const created = await call('POST', '/api/webhooks', 'token-a', valid);
		expect(created.status).toBe(201);
		const setting = webhookSettingSchema.parse(created.json);
		expect(setting).toMatchObject({ url: 'https://hooks.example/n8n', event_types: ['job_created', 'signal'] });

		const listed = await call('GET', '/api/webhooks', 'token-a');
		expect(webhookSettingsEnvelopeSchema.parse(listed.json).data).toEqual([setting]);

		expect((await call('DELETE', `/api/webhooks/${setting.webhook_id}`, 'token-a')).status).toBe(204);
		expect(webhookSettingsEnvelopeSchema.parse((await call('GET', '/api/webhooks', 'token-a')).json).data).toEqual([]);
		expect((await call('DELETE', `/api/webhooks/${setting.webhook_id}`, 'token-a')).status).toBe(404);
	});

	it('keeps accounts apart: another account neither lists nor deletes the entry', async () => {
		const { call } = setup();
		const setting = webhookSettingSchema.parse((await call('POST', '/api/webhooks', 'token-a', valid)).json);
		expect(webhookSettingsEnvelopeSchema.parse((await call('GET', '/api/webhooks', 'token-b')).json).data).toEqual([]);
		expect((await call('DELETE', `/api/webhooks/${setting.webhook_id}`, 'token-b')).status).toBe(404);
		expect(webhookSettingsEnvelopeSchema.parse((await call('GET', '/api/webhooks', 'token-a')).json).data).toEqual([
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
		const response = await call('POST', '/api/webhooks', 'token-a', body);
		expect(response.status).toBe(400);
		expect((response.json as { message: string }).message).toMatch(reason);
		expect(webhooks.settings.list('a1')).toEqual([]);
	});

	it('stores repeated event types once and keeps an optional secret key', async () => {
		const { call } = setup();
		const body = JSON.stringify({ url: 'http://127.0.0.1:65535/h', event_types: ['signal', 'signal'], secret_key: 's' });
		const setting = webhookSettingSchema.parse((await call('POST', '/api/webhooks', 'token-a', body)).json);
		expect(setting.event_types).toEqual(['signal']);
		expect(setting.secret_key).toBe('s');
	});

	it('serves the delivery log at /__mock/deliveries', async () => {
		const { call } = setup();
		expect(await call('GET', '/__mock/deliveries', null)).toEqual({ status: 200, json: { data: [] } });
	});
});
