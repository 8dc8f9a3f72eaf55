// Fault injection through PUT/GET/DELETE /__mock/faults: status, method, rate, latency, dropped connection, bad bodies, which rule decides and what it has left (in-process; over HTTP in standalone.test.mts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MOCK_CONTROL_PATHS, ENDPOINTS, collectionsEnvelopeSchema, signalsEnvelopeSchema } from '../src/base/contract.mts';
import { chosen, Faults, type FaultRule } from '../src/http/faults.mts';
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
		expect(stored).toEqual({ faults: [{ path: '/v2/collections', status: 503, rate: 1, latency_ms: 0, drop: false, after: 0, remaining: null }] });
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

	it('the most specific rule decides, whatever the order: the longest path, then a rule with a method, then the first listed', async () => {
		for (const faults of [
			[{ path: '/v2/jobs', status: 500 }, { path: '/v2/jobs/filters', status: 503 }],
			[{ path: '/v2/jobs/filters', status: 503 }, { path: '/v2/jobs', status: 500 }],
		]) {
			await setFaults(faults);
			expectApiError(await call('/jobs/filters'), 503, /Injected fault on \/v2\/jobs\/filters$/);
			expectApiError(await call('/jobs/job_1'), 500, /Injected fault on \/v2\/jobs$/);
		}
		await setFaults([{ path: '/api/webhooks', status: 500 }, { path: '/api/webhooks', method: 'GET', status: 502 }, { path: '/api/webhooks', method: 'GET', status: 504 }]);
		expectApiError(await call('/api/webhooks', { base: APP_URL }), 502);
		expectApiError(await call('/api/webhooks', { base: APP_URL, method: 'POST', body: { url: 'https://hooks.example/x', event_types: ['signal'] } }), 500);
	});

	it('GET lists each rule with its `remaining` injections; a spent rule stays with 0 and the next most specific decides', async () => {
		const stored = await setFaults([{ path: '/v2/collections', status: 500 }, { path: '/v2/collections/col_demo_1', status: 503, after: 1, times: 2 }]);
		expect(stored).toMatchObject({ faults: [{ remaining: null }, { remaining: 2 }] });
		const path = '/collections/col_demo_1/sources';
		// `after` lets the first through (no fault: the chosen rule decides alone, the broader one does not step in).
		expect((await call(path)).status).toBe(200);
		expectApiError(await call(path), 503);
		expect((await control('GET')).json).toMatchObject({ faults: [{ remaining: null }, { remaining: 1 }] });
		expectApiError(await call(path), 503);
		expect((await control('GET')).json).toMatchObject({ faults: [{ remaining: null }, { path: '/v2/collections/col_demo_1', times: 2, remaining: 0 }] });
		expectApiError(await call(path), 500);
		expect((await control('GET')).json).toMatchObject({ faults: [{ remaining: null }, { remaining: 0 }] });
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

describe('which rule decides (property)', () => {
	const PATHS = ['/', '/v2', '/v2/j', '/v2/jobs', '/v2/jobs/filters', '/v2/jobs/job_1', '/api/webhooks'];
	const REQUESTS = ['/v2/jobs', '/v2/jobs/filters', '/v2/jobs/filters/x', '/v2/jobs/job_1', '/v2/signals', '/api/webhooks/wh_1', '/other'];
	const rule = fc.record({ path: fc.constantFrom(...PATHS), method: fc.option(fc.constantFrom('GET', 'POST'), { nil: undefined }), times: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }) });
	const request = fc.record({ method: fc.constantFrom('GET', 'POST'), path: fc.constantFrom(...REQUESTS) });
	/** How much more specific a rule is than another (> 0: more), as the README states it. */
	const specificity = (a: Pick<FaultRule, 'path' | 'method'>, b: Pick<FaultRule, 'path' | 'method'>) =>
		a.path.length - b.path.length || Number(a.method !== undefined) - Number(b.method !== undefined);
	const matches = (r: Pick<FaultRule, 'path' | 'method'>, method: string, path: string) => path.startsWith(r.path) && (r.method === undefined || r.method === method);

	// 300 runs, seed 38: each a list of up to 8 rules over overlapping prefixes and up to 12 requests.
	it('the rule that fires matches, none that matches and is live is more specific, and among equals it is the first listed; `remaining` counts down to 0', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(rule, { maxLength: 8 }), fc.array(request, { minLength: 1, maxLength: 12 }), async (given, requests) => {
				const faults = new Faults();
				// Each rule answers its own status, so the answer names the rule that fired.
				const rules: FaultRule[] = given.map((r, i) => ({ ...r, status: 400 + i, rate: 1, latency_ms: 0, drop: false, after: 0 }));
				faults.set(rules);
				const fired = rules.map(() => 0);
				for (const { method, path } of requests) {
					const live = rules.map((r, i) => r.times === undefined || fired[i] < r.times);
					const answer = await faults.around(new Request(`http://mock.test${path}`, { method }), path, async () => new Response(null, { status: 200 }));
					const index = answer.status === 200 ? -1 : answer.status - 400;
					expect(index, `${method} ${path}`).toBe(chosen(rules, method, path, (i) => live[i]));
					const candidates = rules.map((r, i) => ({ r, i })).filter(({ r, i }) => live[i] && matches(r, method, path));
					if (index < 0) {
						expect(candidates).toEqual([]);
						continue;
					}
					expect(live[index] && matches(rules[index], method, path)).toBe(true);
					for (const { r, i } of candidates) {
						const more = specificity(r, rules[index]);
						expect(more > 0 || (more === 0 && i < index), `rule ${i} over rule ${index} for ${method} ${path}`).toBe(false);
					}
					fired[index]++;
				}
				expect(faults.list().map((r) => r.remaining)).toEqual(rules.map((r, i) => (r.times === undefined ? null : r.times - fired[i])));
				expect(faults.list().every((r) => r.remaining === null || r.remaining >= 0)).toBe(true);
			}),
			{ numRuns: 300, seed: 38 },
		);
	});
});
