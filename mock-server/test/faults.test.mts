// Fault injection through PUT/GET/DELETE /__mock/faults: status, method, rate, latency, dropped connection, bad bodies (in-process; over HTTP in standalone.test.mts).
import { describe, expect, it } from 'vitest';
import {MOCK_CONTROL_PATHS } from '../../contract/api';
import { ENDPOINTS } from '../../contract/endpoints';
import { collectionsEnvelopeSchema, signalsEnvelopeSchema } from '../../contract/schemas';
import { API_URL, APP_URL, call, DEMO_TOKEN, expectApiError, ok, useMock } from './harness.mts';

const mock = useMock();
const control = (method: string, body?: unknown) => call(MOCK_CONTROL_PATHS.faults, { base: APP_URL, token: null, method, body });

async function setFaults(faults: unknown[]): Promise<unknown> {
	const answer = await control('PUT', { faults });
	expect(answer.status).toBe(200);
	return answer.json;
}

describe('fault injection', () => {
	it('answers the injected status on matching paths (prefix) only, before auth, with the API error body', async () => {
		const stored = await setFaults([{ path: '/v2/collections', status: 503 }]);
		expect(stored).toEqual({ faults: [{ path: '/v2/collections', status: 503, rate: 1, latency_ms: 0, drop: false, after: 0 }] });
		expect((await control('GET')).json).toEqual(stored);
		expectApiError(await call('/collections'), 503, /Injected fault/);
		expectApiError(await call('/collections/col_demo_1/sources', { token: null }), 503);
		await ok(signalsEnvelopeSchema, '/signals/problems');
	});

	it('matches the method when given, and works on the app URL too', async () => {
		await setFaults([{ path: ENDPOINTS.subscriberUpload.path, method: 'post', status: 500 }]);
		const answer = await call(ENDPOINTS.subscriberUpload.path, { base: APP_URL, method: 'POST', token: null, body: { email_addresses: 'a@example.com', access_token: DEMO_TOKEN } });
		expectApiError(answer, 500);
		await setFaults([{ path: '/v2/collections', method: 'DELETE', status: 500 }]);
		await ok(collectionsEnvelopeSchema, '/collections');
	});

	it('drops the connection', async () => {
		await setFaults([{ path: '/v2/collections', drop: true }]);
		await expect(call('/collections')).rejects.toThrow(TypeError);
	});

	it('applies a rule with probability `rate`, repeatably after a reset', async () => {
		const run = async () => {
			await setFaults([{ path: '/v2/collections', status: 500, rate: 0.5 }]);
			const statuses: number[] = [];
			for (let i = 0; i < 40; i++) statuses.push((await call('/collections')).status);
			return statuses;
		};
		const first = await run();
		const failed = first.filter((s) => s === 500).length;
		expect(failed).toBeGreaterThan(5);
		expect(failed).toBeLessThan(35);
		expect(first.filter((s) => s !== 500).every((s) => s === 200)).toBe(true);
		await mock.service.reset();
		expect(await run()).toEqual(first);
	});

	it('`after` lets that many matching requests through first; `times` retires the rule after that many injections', async () => {
		await setFaults([{ path: '/v2/collections', status: 500, after: 2, times: 3 }]);
		const statuses: number[] = [];
		for (let i = 0; i < 7; i++) statuses.push((await call('/collections')).status);
		expect(statuses).toEqual([200, 200, 500, 500, 500, 200, 200]);
	});

	it('an injected 429 carries Retry-After like the service\'s own', async () => {
		await setFaults([{ path: '/v2/collections', status: 429 }]);
		const answer = await call('/collections');
		expectApiError(answer, 429);
		expect(answer.headers.get('retry-after')).toBe('1');
	});

	it('adds latency and then lets the request through', async () => {
		await setFaults([{ path: '/v2/collections', latency_ms: 120 }]);
		const started = performance.now();
		await ok(collectionsEnvelopeSchema, '/collections');
		expect(performance.now() - started).toBeGreaterThanOrEqual(110);
	});

	it('never touches the control routes', async () => {
		await setFaults([{ path: '/', drop: true }]);
		expect((await call(MOCK_CONTROL_PATHS.accounts, { base: APP_URL, token: null })).status).toBe(200);
		expect((await control('GET')).status).toBe(200);
	});

	it('refuses (400) a rule that could match only the control routes, and keeps the rules it had', async () => {
		const kept = await setFaults([{ path: '/v2/collections', status: 503 }]);
		for (const path of ['/__mock', '/__mock/', MOCK_CONTROL_PATHS.faults, MOCK_CONTROL_PATHS.accounts, '/__m', '/_']) {
			const refused = await control('PUT', { faults: [{ path: '/v2/jobs', status: 500 }, { path, status: 500 }] });
			expectApiError(refused, 400, /faults\.1\.path: faults apply to the service's routes only .*never to the mock's control routes \(\/__mock\/…\)/);
			expect((await control('GET')).json).toEqual(kept);
		}
		// `/` matches the service's routes too (and applies only to them, as above).
		await setFaults([{ path: '/', status: 503 }]);
	});

	it('DELETE and reset clear every rule', async () => {
		await setFaults([{ path: '/v2', status: 502 }]);
		const deleted = await control('DELETE');
		expect(deleted.status).toBe(204);
		expect((await control('GET')).json).toEqual({ faults: [] });
		await ok(collectionsEnvelopeSchema, '/collections');
		await setFaults([{ path: '/v2', status: 502 }]);
		expect((await call(MOCK_CONTROL_PATHS.reset, { base: APP_URL, token: null, method: 'POST' })).status).toBe(200);
		await ok(collectionsEnvelopeSchema, '/collections');
	});

	it('answers 400 for a body that is not JSON or not a list of valid rules, and keeps the rules it had', async () => {
		await setFaults([{ path: '/v2/collections', status: 503 }]);
		expectApiError(await control('PUT', '{oops'), 400, /must be JSON/);
		for (const body of [
			{},
			{ faults: 'x' },
			{ faults: [{ path: 'v2/jobs', status: 500 }] },
			{ faults: [{ path: '/v2/jobs' }] },
			{ faults: [{ path: '/v2/jobs', status: 200 }] },
			{ faults: [{ path: '/v2/jobs', status: 600 }] },
			{ faults: [{ path: '/v2/jobs', status: 500, rate: 2 }] },
			{ faults: [{ path: '/v2/jobs', latency_ms: -1 }] },
			{ faults: [{ path: '/v2/jobs', drop: 'yes' }] },
			{ faults: [{ path: '/v2/jobs', status: 500, after: -1 }] },
			{ faults: [{ path: '/v2/jobs', status: 500, times: 0 }] },
			{ faults: [{ path: '/v2/jobs', body: 'xml' }] },
			{ faults: [{ path: '/v2/jobs', body: 'html', drop: true }] },
		]) {
			expectApiError(await control('PUT', body), 400, /Invalid faults/);
		}
		expectApiError(await call('/collections'), 503);
	});

	describe('bad bodies', () => {
		const page2 = '/signals/problems?page=2';
		const raw = async (path: string, base = API_URL) => {
			const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
			return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
		};

		it.each([
			['truncated-json', (real: string, text: string) => {
				expect(text).toBe(real.slice(0, Math.floor(real.length / 2)));
				expect(() => JSON.parse(text)).toThrow(SyntaxError);
			}],
			['html', (_real: string, text: string, type: string | null) => {
				expect(type).toMatch(/^text\/html/);
				expect(text).toMatch(/<title>200 OK<\/title>/);
			}],
			['empty', (_real: string, text: string) => expect(text).toBe('')],
			['wrong-shape', (_real: string, text: string) => expect(JSON.parse(text)).toEqual({ unexpected: true })],
			['null-list', (real: string, text: string) => expect(JSON.parse(text)).toEqual({ ...JSON.parse(real), signals: null })],
			['json-string', (_real: string, text: string) => expect(JSON.parse(text)).toBe('unexpected')],
		] as const)('"%s": the real answer\'s status with that body, after the pages `after` lets through', async (body, check) => {
			const real = await raw(page2);
			expect(real.status).toBe(200);
			await setFaults([{ path: '/v2/signals', body, after: 1 }]);
			await ok(signalsEnvelopeSchema, '/signals/problems');
			const bad = await raw(page2);
			expect(bad.status).toBe(200);
			check(real.text, bad.text, bad.type);
			// `times` is unset: the rule keeps firing.
			expect((await raw(page2)).text).toBe(bad.text);
		});

		it('with a status, answers that status with the bad body (a proxy\'s error page)', async () => {
			await setFaults([{ path: '/v2/collections', status: 502, body: 'html' }]);
			const answer = await raw('/collections');
			expect(answer.status).toBe(502);
			expect(answer.text).toMatch(/<title>502 Bad Gateway<\/title>/);
		});

		it('works on the app URL, including the webhook settings routes, and never on the control routes', async () => {
			await setFaults([{ path: '/api/webhooks', method: 'GET', body: 'wrong-shape' }, { path: '/', method: 'GET', body: 'empty' }]);
			const settings = await raw('/api/webhooks', APP_URL);
			expect([settings.status, JSON.parse(settings.text)]).toEqual([200, { unexpected: true }]);
			expect((await call(MOCK_CONTROL_PATHS.accounts, { base: APP_URL, token: null })).status).toBe(200);
			await setFaults([{ path: '/api/webhooks', method: 'POST', status: 503 }]);
			const created = await call('/api/webhooks', { base: APP_URL, method: 'POST', body: { url: 'https://hooks.example/x', event_types: ['signal'] } });
			expectApiError(created, 503, /Injected fault/);
			expect(mock.service.webhooks.settings.list('acc_demo')).toEqual([]);
		});
	});
});
