// Property (fast-check, fixed seeds): random query strings on every GET endpoint under /v2 (each endpoint's own
// parameters and unknown ones; values random, malformed, repeated, out of range, huge), in-process with the default
// and with strictQuery, and a smaller set over real HTTP with raw request targets. Whatever the query: no 5xx; a 400
// is a JSON API error naming a parameter the query holds; the data stays as it was (GETs change nothing).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, fillPath, type QueryName, apiErrorSchema, QUERY_SCHEMAS, LIMITS } from '../src/base/contract.mts';
import { ALL_TYPES } from '../src/data/generate.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import type { MockService } from '../src/service.mts';
import { API_URL, DEMO_TOKEN, SMALL, useMock } from './harness.mts';
import { rawRequest } from './raw-http.mts';

const GETS = Object.values(ENDPOINTS).filter((endpoint) => endpoint.method === 'GET' && endpoint.on === 'api');

/** Values for the path's parameters, from the data (so the query is what decides) or not (a 404 then). */
function pathValues(service: MockService) {
	const [source] = service.store.sources.values();
	const [job] = service.store.jobs.keys();
	const [collection] = service.store.collectionsOf('acc_demo');
	const [type] = ALL_TYPES;
	return fc.record({
		group: fc.constantFrom(type.group, 'nothing'),
		category: fc.constantFrom(type.category),
		type: fc.constantFrom(type.type),
		url_source: fc.constantFrom(source.url_source, 'unknown.example'),
		source_id: fc.constantFrom(source.source_id, 'src_unknown'),
		job_id: fc.constantFrom(job, 'job_unknown'),
		collection_id: fc.constantFrom(collection.collection_id, 'col_unknown'),
	});
}

const UNKNOWN_NAMES = ['x', 'pagee', 'PAGE', 'page[]', 'a b', 'é', '__proto__', 'constructor', ''];
/** A value as it goes into the query string: percent-encoded text, or raw pieces a client may send as they are. */
const value = fc.oneof(
	fc.constantFrom('', '0', '1', '-1', '2', '1.5', '1e3', '1e309', 'NaN', 'true', 'false', 'yes', '%', '%ZZ', '%E0%A4%A', '+', '++', '%2B', '%00', '&', '=', 'null', '[]'),
	fc.integer({ min: -5, max: 1_000_000 }).map(String),
	fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
	fc.constantFrom(LIMITS.signalsMaxPerPage, LIMITS.signalsMaxPerPage + 1, 2 ** 31, 2 ** 53 + 1).map(String),
	fc.constantFrom(1000, 7000).map((n) => 'y'.repeat(n)),
);

function queryFor(names: readonly string[]) {
	return fc
		.array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(names.length > 0 ? names : ['x'])) }, { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN_NAMES) }), value), { maxLength: 6 })
		// Repeated parameters: some pairs twice.
		.chain((pairs) => fc.subarray(pairs).map((again) => [...pairs, ...again]))
		.map((pairs) => ({ pairs, text: pairs.map(([n, v]) => `${encodeURIComponent(n)}=${v}`).join('&') }));
}

const cases = (service: MockService) =>
	fc.tuple(fc.nat(GETS.length - 1), pathValues(service)).chain(([index, params]) => {
		const endpoint = GETS[index];
		const query = 'doc' in endpoint ? (endpoint.doc as { query?: QueryName }).query : undefined;
		const names = query === undefined ? [] : Object.keys(QUERY_SCHEMAS[query].shape);
		return queryFor(names).map((sent) => ({ path: fillPath(endpoint.path, params), query: sent }));
	});

/** What the data is: its sizes and the demo account's collections (a GET that changed either would show). */
const dataOf = (service: MockService) => JSON.stringify([service.store.jobs.size, service.store.signals.length, service.store.sources.size, service.store.collectionsOf('acc_demo')]);

function checkAnswer(status: number, text: string, pairs: [string, string][], where: string): void {
	expect(status, where).toBeLessThan(500);
	if (status < 400) return;
	const error = apiErrorSchema.parse(JSON.parse(text));
	expect(error.status, where).toBe(status);
	if (status === 400) {
		// The parameter named, as sent or decoded.
		const names = pairs.flatMap(([name]) => [name, encodeURIComponent(name)]);
		expect(names.some((name) => name !== '' && error.message.includes(`"${name}"`)) || (pairs.some(([name]) => name === '') && error.message.includes('""')), `${where}: names no parameter`).toBe(true);
	}
}

for (const strictQuery of [false, true]) {
	describe(`property: query strings on every /v2 GET (strictQuery ${strictQuery})`, () => {
		const mock = useMock({ ...SMALL, strictQuery });

		it('never 5xx; a 400 names a parameter of the query; the data is unchanged', async () => {
			const before = dataOf(mock.service);
			const seen = new Map<number, number>();
			await fc.assert(
				fc.asyncProperty(cases(mock.service), async ({ path, query }) => {
					const target = `${path}${query.text === '' ? '' : `?${query.text}`}`;
					const response = await fetch(`${API_URL}${target}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
					const text = await response.text();
					seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
					checkAnswer(response.status, text, query.pairs, `GET ${target.slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`);
				}),
				{ numRuns: strictQuery ? 100 : 150, seed: strictQuery ? 3622 : 3621 },
			);
			expect(dataOf(mock.service)).toBe(before);
			// Both kinds reached: answers and refusals.
			expect(seen.get(200)).toBeGreaterThan(5);
			expect(seen.get(400)).toBeGreaterThan(10);
		}, 120_000);

		if (strictQuery) {
			it('examples: an empty parameter name, a repeated one and a huge value are named', async () => {
				const named = async (target: string, name: string) => {
					const response = await fetch(`${API_URL}${target}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
					expect(response.status).toBe(400);
					expect(apiErrorSchema.parse(await response.json()).message).toContain(`"${name}"`);
				};
				await named('/signals/problems?=1', '');
				await named('/signals/problems?page=1&page=2', 'page');
				await named(`/jobs?offset=${'9'.repeat(400)}`, 'offset');
			});
		}
	});
}

describe('property: raw query strings over real HTTP', () => {
	let server: RunningMockServer;
	beforeAll(async () => {
		server = await startMockServer({ ...SMALL, port: 0 });
	});
	afterAll(() => server?.close());

	it('never 5xx, whatever the bytes of the query (undecodable escapes, separators only, raw unicode, past the target limit)', async () => {
		const port = Number(new URL(server.appUrl).port);
		const before = dataOf(server.service);
		const raw = fc.oneof(
			fc.string({ unit: fc.constantFrom(...'%&=+;?#/[]aZ09'), maxLength: 40 }),
			fc.string({ unit: fc.integer({ min: 0x21, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
			fc.constantFrom(LIMITS.maxRequestTargetLength - 40, LIMITS.maxRequestTargetLength + 10).map((n) => `search=${'x'.repeat(n)}`),
		);
		await fc.assert(
			fc.asyncProperty(fc.constantFrom('/v2/jobs', '/v2/signals/problems', '/v2/collections', '/v2/jobs/filters'), raw, async (path, query) => {
				// Latin-1 bytes as they are (a client that does not encode); `#` ends the target in a real client, so it is left out.
				const target = `${path}?${query.replace(/[#\s]/g, '')}`;
				const answer = await rawRequest(port, `GET ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${DEMO_TOKEN}\r\nconnection: close\r\n\r\n`);
				expect(answer.status, `${target.slice(0, 200)} → ${answer.body.slice(0, 200)}`).toBeDefined();
				expect(answer.status!, `${target.slice(0, 200)} → ${answer.body.slice(0, 200)}`).toBeLessThan(500);
				if (answer.status! >= 400) expect(apiErrorSchema.parse(JSON.parse(answer.body)).status).toBe(answer.status);
			}),
			{ numRuns: 60, seed: 3623 },
		);
		expect(dataOf(server.service)).toBe(before);
	}, 60_000);
});
