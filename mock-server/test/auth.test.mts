// Bearer auth on every /v2 endpoint and on the webhook settings API: missing, malformed or unknown token is 400 (CHOICES.authErrorStatus).
import { describe, expect, it } from 'vitest';
import { CHOICES, ENDPOINTS, fillPath, collectionsEnvelopeSchema } from '../src/base/contract.mts';
import { APP_URL, call, DEMO_TOKEN, expectApiError, ok, useMock } from './harness.mts';

useMock();

const PARAMS = { group: 'problems', category: 'finance', type: 'cash-flow-constraints', url_source: 'acme.com', source_id: 'src_000001', job_id: 'job_0000001', collection_id: 'col_demo_1' };
const everyEndpoint = Object.values(ENDPOINTS).flatMap(({ on, path }) => (on === 'api' ? [fillPath(path, PARAMS)] : []));

async function withHeader(path: string, authorization: string | undefined, base?: string) {
	const response = await fetch(`${base ?? 'http://mock.test/v2'}${path}`, { headers: authorization === undefined ? {} : { authorization } });
	return { status: response.status, headers: response.headers, json: await response.json() };
}

describe('auth', () => {
	it('answers 400 with the API error body when the token is missing, malformed or unknown, on every /v2 endpoint', async () => {
		expect(CHOICES.authErrorStatus).toBe(400);
		for (const path of everyEndpoint) {
			expectApiError(await call(path, { token: null }), 400, /Missing API token/);
			for (const header of ['Token abc', 'Bearer', 'Bearer ', `Basic ${DEMO_TOKEN}`, `Bearer ${DEMO_TOKEN} extra`]) {
				expectApiError(await withHeader(path, header), 400, /Malformed Authorization header/);
			}
			expectApiError(await call(path, { token: 'not-a-token' }), 400, /Invalid API token/);
			expectApiError(await call(path, { token: DEMO_TOKEN.toUpperCase() }), 400, /Invalid API token/);
		}
	});

	it('checks the token before anything else about the request (an unknown group is still 400 without a token)', async () => {
		expectApiError(await call('/signals/no-such-group', { token: null }), 400);
		expectApiError(await call('/signals/problems?per_page=5000', { token: 'bad' }), 400, /Invalid API token/);
	});

	it('accepts the scheme in any case and surrounding spaces', async () => {
		for (const header of [`bearer ${DEMO_TOKEN}`, `BEARER   ${DEMO_TOKEN}  `]) {
			const answer = await withHeader('/collections', header);
			expect(answer.status).toBe(200);
			collectionsEnvelopeSchema.strict().parse(answer.json);
		}
		await ok(collectionsEnvelopeSchema, '/collections');
	});

	it('the webhook settings API answers the same way', async () => {
		expectApiError(await call(ENDPOINTS.listWebhooks.path, { base: APP_URL, token: null }), 400, /Missing API token/);
		expectApiError(await call(ENDPOINTS.listWebhooks.path, { base: APP_URL, token: 'nope' }), 400, /Invalid API token/);
		expectApiError(await call(ENDPOINTS.listWebhooks.path, { base: APP_URL, token: 'nope', method: 'POST', body: {} }), 400, /Invalid API token/);
	});
});
