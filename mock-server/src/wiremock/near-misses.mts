/**
 * WireMock's near misses (README, "Near misses and the 404 diff"): the stubs closest to a request (POST /__admin/near-misses/request,
 * and each unmatched call of the journal: GET /__admin/requests/unmatched/near-misses), and the journal's calls
 * closest to a request pattern (POST /__admin/near-misses/request-pattern), nearest first by the distance of
 * distance.mts, at most MAX_NEAR_MISSES each, as WireMock answers them.
 */
import { fail, isPlainObject, textValue, type Value } from './content-patterns.mts';
import { compare, type MatchResult } from './distance.mts';
import type { MappingsStore, Stub, StubMapping } from './mappings-store.mts';
import type { RequestView } from './request-pattern.mts';

/** At most this many near misses per request or pattern (WireMock's 3). */
export const MAX_NEAR_MISSES = 3;

export interface NearMiss {
	/** The request, as a logged request. */
	request: object;
	stubMapping?: StubMapping;
	requestPattern?: unknown;
	matchResult: { distance: number };
}

export interface Ranked<T> {
	item: T;
	result: MatchResult;
}

/** The `limit` items nearest by `measure`, nearest first; equal distances keep the order given. */
export function closest<T>(items: readonly T[], measure: (item: T) => MatchResult, limit: number): Ranked<T>[] {
	const ranked = items.map((item, index) => ({ item, result: measure(item), index }));
	ranked.sort((a, b) => a.result.distance - b.result.distance || a.index - b.index);
	return ranked.slice(0, limit).map(({ item, result }) => ({ item, result }));
}

/** A stub against a request: its request pattern, and its scenario's state when it needs one. */
export function stubDistance(store: MappingsStore, stub: Stub, view: RequestView, body: Value): MatchResult {
	const scenario = stub.scenario;
	const check = scenario?.required === undefined ? undefined : { name: scenario.name, required: scenario.required, current: store.stateOf(scenario.name) };
	return compare(stub.request, view, body, check);
}

/** The stubs nearest to a request, nearest first. */
export function closestStubs(store: MappingsStore, view: RequestView, body: Value, limit = MAX_NEAR_MISSES): Ranked<Stub>[] {
	return closest(store.all(), (stub) => stubDistance(store, stub, view, body), limit);
}

/** A request as patterns read it, from its method, its path and query as sent, and its headers. */
export function requestView(method: string, pathAndQuery: string, header: (lowerName: string) => string[]): RequestView {
	const question = pathAndQuery.indexOf('?');
	const path = question < 0 ? pathAndQuery : pathAndQuery.slice(0, question);
	let params: URLSearchParams | undefined;
	return {
		method,
		path,
		pathAndQuery,
		query: (name) => (params ??= new URLSearchParams(question < 0 ? '' : pathAndQuery.slice(question + 1))).getAll(name),
		header: (name) => header(name.toLowerCase()),
	};
}

/** Fields of WireMock's logged request that are read (url, absoluteUrl, method, headers, body, bodyAsBase64), or taken and not needed here. */
const READ_FIELDS = ['url', 'absoluteUrl', 'method', 'headers', 'body', 'bodyAsBase64'];
const IGNORED_FIELDS = ['id', 'clientIp', 'cookies', 'browserProxyRequest', 'loggedDate', 'loggedDateString', 'queryParams', 'formParams', 'protocol', 'scheme', 'host', 'port', 'multiparts'];

/**
 * POST /__admin/near-misses/request's body, a logged request as GET /__admin/requests shows one: `method` and `url`
 * (or `absoluteUrl`) needed, `headers` (name → value or list of values), `body` (or `bodyAsBase64`). Throws
 * MappingError naming a bad field. `shown`: the request as the answer shows it.
 */
export function readLoggedRequest(input: unknown): { view: RequestView; body: Value; shown: Record<string, unknown> } {
	const at = 'logged request';
	if (!isPlainObject(input)) fail(at, 'must be an object such as {"method": "GET", "url": "/v2/jobs?page=2", "headers": {"x-a": "1"}}');
	for (const key of Object.keys(input)) {
		if (!READ_FIELDS.includes(key) && !IGNORED_FIELDS.includes(key)) fail(`${at}.${key}`, `is no field of WireMock's logged request (read: ${READ_FIELDS.join(', ')})`);
	}
	const { method, headers, body, bodyAsBase64 } = input;
	if (typeof method !== 'string' || !/^[A-Z]+$/.test(method)) fail(`${at}.method`, 'is required: a method name in capitals (GET, POST, …)');
	const url = readUrl(input.url, input.absoluteUrl, at);
	const kept = new Map<string, string[]>();
	if (headers !== undefined) {
		if (!isPlainObject(headers)) fail(`${at}.headers`, 'must be an object of name → value (or list of values)');
		for (const [name, value] of Object.entries(headers)) {
			const values = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((each) => typeof each === 'string') ? (value as string[]) : undefined;
			if (values === undefined) fail(`${at}.headers.${name}`, 'must be a text or a list of texts');
			kept.set(name.toLowerCase(), [...(kept.get(name.toLowerCase()) ?? []), ...values]);
		}
	}
	if (body !== undefined && typeof body !== 'string') fail(`${at}.body`, 'must be a text');
	if (bodyAsBase64 !== undefined && (typeof bodyAsBase64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(bodyAsBase64))) fail(`${at}.bodyAsBase64`, 'must be base64');
	const text = body ?? (bodyAsBase64 === undefined ? '' : Buffer.from(bodyAsBase64, 'base64').toString('utf8'));
	const view = requestView(method, url.pathAndQuery, (name) => kept.get(name) ?? []);
	const queryParams: Record<string, { key: string; values: string[] }> = {};
	const params = new URLSearchParams(url.pathAndQuery.includes('?') ? url.pathAndQuery.slice(url.pathAndQuery.indexOf('?') + 1) : '');
	for (const key of new Set(params.keys())) queryParams[key] = { key, values: params.getAll(key) };
	return {
		view,
		body: textValue(text),
		shown: {
			url: url.pathAndQuery,
			absoluteUrl: url.absolute,
			method,
			headers: Object.fromEntries([...kept].map(([name, values]) => [name, values.length === 1 ? values[0] : values])),
			cookies: {},
			browserProxyRequest: false,
			body: text,
			bodyAsBase64: Buffer.from(text).toString('base64'),
			queryParams,
			...(typeof input.loggedDate === 'number' && { loggedDate: input.loggedDate }),
			...(typeof input.loggedDateString === 'string' && { loggedDateString: input.loggedDateString }),
		},
	};
}

function readUrl(url: unknown, absoluteUrl: unknown, at: string): { pathAndQuery: string; absolute: string } {
	if (url !== undefined) {
		if (typeof url !== 'string' || !url.startsWith('/')) fail(`${at}.url`, 'must be the path and query, starting with "/"');
		const absolute = typeof absoluteUrl === 'string' ? absoluteUrl : `http://localhost${url}`;
		return { pathAndQuery: url.split('#')[0], absolute };
	}
	if (typeof absoluteUrl !== 'string') fail(`${at}.url`, 'is required (or absoluteUrl): the path and query, such as "/v2/jobs?page=2"');
	let parsed: URL;
	try {
		parsed = new URL(absoluteUrl);
	} catch {
		fail(`${at}.absoluteUrl`, 'must be an absolute URL');
	}
	return { pathAndQuery: `${parsed.pathname}${parsed.search}`, absolute: absoluteUrl };
}

/** POST /__admin/near-misses/request: the stubs nearest to the request. Throws MappingError for a bad body. */
export function nearMissesForRequest(store: MappingsStore, input: unknown): NearMiss[] {
	const { view, body, shown } = readLoggedRequest(input);
	return closestStubs(store, view, body).map(({ item, result }) => ({ request: shown, stubMapping: item.mapping, matchResult: { distance: result.distance } }));
}
