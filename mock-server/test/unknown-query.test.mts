// A query parameter the endpoint does not take (a typo such as `serach`): by default answered as without it, with an
// X-Mock-Warning header naming it and the known ones, and the same warning in the request journal; with
// `strictQuery` (`--strict-query`) a 400 naming them. And a literal "+" in `search`, which arrives as a space:
// warned of when the search then matches no job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags, FlagError } from '../src/cli-flags.mts';
import { WARNING_HEADER } from '../src/http/route.mts';
import { PLUS_IN_SEARCH_WARNING } from '../src/http/query.mts';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { API_URL, APP_URL, call, DEMO_TOKEN, expectApiError, SMALL, useMock } from './harness.mts';
import { rawRequest } from './raw-http.mts';

const SEARCH_KNOWN = 'known: search, locations, categories, job_tags, industry_tags, offset';
const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
const get = (path: string, headers: Record<string, string> = auth) => fetch(`${API_URL}${path}`, { headers });

describe('unknown query parameters, by default', () => {
	const mock = useMock();

	it('answer as without them, with a warning header naming them and the endpoint\'s parameters, and the warning in the journal', async () => {
		const typo = await get('/jobs?serach=engineer');
		const plain = await get('/jobs');
		expect(typo.status).toBe(200);
		expect(await typo.text()).toBe(await plain.text());
		expect(typo.headers.get(WARNING_HEADER)).toBe(`unknown query parameter "serach"; ${SEARCH_KNOWN}`);
		expect(plain.headers.get(WARNING_HEADER)).toBeNull();
		const journal = mock.service.requests({ path: '/v2/jobs' }).data;
		expect(journal.map((entry) => [entry.query, entry.warnings])).toEqual([
			[{ serach: 'engineer' }, [`unknown query parameter "serach"; ${SEARCH_KNOWN}`]],
			[{}, []],
		]);
	});

	it("name every endpoint's own parameters, and say when it takes none (app routes too)", async () => {
		const signals = await get('/signals/problems?pagee=2&page=1&pagee=3&perpage=5');
		expect(signals.status).toBe(200);
		expect(signals.headers.get(WARNING_HEADER)).toBe('unknown query parameters "pagee", "perpage"; known: page, per_page, direct_only, active_only');
		expect((await get('/collections?limit=5')).headers.get(WARNING_HEADER)).toBe('unknown query parameter "limit"; this endpoint takes none');
		const webhooks = await fetch(`${APP_URL}/api/webhooks?all=1`, { headers: auth });
		expect(webhooks.status).toBe(200);
		expect(webhooks.headers.get(WARNING_HEADER)).toBe('unknown query parameter "all"; this endpoint takes none');
	});

	it('warn on a refused call too (the token is checked as before)', async () => {
		const refused = await get('/jobs?serach=x', {});
		expectApiError({ status: refused.status, headers: refused.headers, json: await refused.json() }, 400, /Missing API token/);
		expect(refused.headers.get(WARNING_HEADER)).toBe(`unknown query parameter "serach"; ${SEARCH_KNOWN}`);
	});

	it('keep the header printable and short: odd characters percent-encoded, long names cut, at most 10 named', async () => {
		const odd = await get('/collections?caf%C3%A9%0D%0AX-Evil%3A%201=1&a%22b=2');
		expect(odd.headers.get(WARNING_HEADER)).toBe('unknown query parameters "caf%C3%A9%0D%0AX-Evil:%201", "a%22b"; this endpoint takes none');
		expect(odd.headers.get('x-evil')).toBeNull();
		const long = await get(`/collections?${'n'.repeat(100)}=1`);
		expect(long.headers.get(WARNING_HEADER)).toBe(`unknown query parameter "${'n'.repeat(64)}…"; this endpoint takes none`.replace('…', '%E2%80%A6'));
		const many = await get(`/collections?${Array.from({ length: 12 }, (_, i) => `p${i}=1`).join('&')}`);
		const names = Array.from({ length: 10 }, (_, i) => `"p${i}"`).join(', ');
		expect(many.headers.get(WARNING_HEADER)).toBe(`unknown query parameters ${names} and 2 more; this endpoint takes none`);
	});
});

describe('a "+" in search', () => {
	useMock();
	const search = (raw: string) => get(`/jobs?search=${raw}`);

	it('sent literally, when nothing matched: a warning that it arrived as a space and should be %2B', async () => {
		const plus = await search('zzqx+qqzv');
		expect(plus.status).toBe(200);
		expect(((await plus.json()) as { data: unknown[] }).data).toEqual([]);
		expect(plus.headers.get(WARNING_HEADER)).toBe(PLUS_IN_SEARCH_WARNING);
		expect(PLUS_IN_SEARCH_WARNING).toMatch(/%2B/);
	});

	it('escaped as %2B, or when jobs matched: no warning', async () => {
		const escaped = await search('zzqx%2Bqqzv');
		expect(escaped.status).toBe(200);
		expect(escaped.headers.get(WARNING_HEADER)).toBeNull();
		const page = (await (await get('/jobs')).json()) as { data: { job_title: string }[] };
		const word = page.data[0].job_title.split(' ')[0].toLowerCase();
		const matched = await search(`${encodeURIComponent(word)}+`);
		expect(((await matched.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
		expect(matched.headers.get(WARNING_HEADER)).toBeNull();
	});

	it('in another parameter than search: no warning', async () => {
		expect((await get('/jobs?search=zzqx&locations=a+b')).headers.get(WARNING_HEADER)).toBeNull();
	});
});

describe('strictQuery', () => {
	useMock({ ...SMALL, strictQuery: true });

	it('answers 400 naming the unknown parameters and the known ones, after the token check', async () => {
		const typo = await call('/jobs?serach=engineer');
		expectApiError(typo, 400, /^Unknown query parameter "serach"; known: search, locations, categories, job_tags, industry_tags, offset$/);
		expect(typo.headers.get(WARNING_HEADER)).toBe(`unknown query parameter "serach"; ${SEARCH_KNOWN}`);
		expectApiError(await call('/jobs?serach=engineer', { token: null }), 400, /Missing API token/);
		expect((await call('/jobs?search=engineer')).status).toBe(200);
		expectApiError(await call('/api/webhooks?all=1', { base: APP_URL }), 400, /^Unknown query parameter "all"; this endpoint takes none$/);
	});
});

describe('--strict-query', () => {
	let server: RunningMockServer;
	beforeAll(async () => {
		server = await startMockServer({ ...SMALL, port: 0, ...parseFlags(['--strict-query']) });
	});
	afterAll(() => server?.close());

	it('is a flag without a value', () => {
		expect(parseFlags(['--strict-query'])).toEqual({ strictQuery: true });
		expect(parseFlags([])).toEqual({});
		expect(() => parseFlags(['--strict-query=on'])).toThrow(new FlagError('--strict-query takes no value, got "on"'));
	});

	it('answers 400 over HTTP, and an odd name cannot split the header', async () => {
		const typo = await fetch(`${server.apiUrl}/jobs?serach=x`, { headers: auth });
		expect(typo.status).toBe(400);
		expect(((await typo.json()) as { message: string }).message).toBe(`Unknown query parameter "serach"; ${SEARCH_KNOWN}`);
		const port = Number(new URL(server.appUrl).port);
		const raw = await rawRequest(port, `GET /v2/collections?a%0D%0ASet-Cookie:%20x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${DEMO_TOKEN}\r\nConnection: close\r\n\r\n`);
		expect(raw.status).toBe(400);
		expect(raw.headers['set-cookie']).toBeUndefined();
		expect(raw.headers[WARNING_HEADER.toLowerCase()]).toBe('unknown query parameter "a%0D%0ASet-Cookie:%20x"; this endpoint takes none');
	});
});
