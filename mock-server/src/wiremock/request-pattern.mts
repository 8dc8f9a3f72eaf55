/**
 * WireMock's request pattern (a mapping's `request`, and the body of requests/find and
 * requests/count): read from JSON, anything not served refused with the field's name, and
 * compiled into a test of a request. The method and the URL rule are kept apart so the
 * mappings store can index stubs by them and skip the rest for most requests.
 *
 * Served: method (a stub's: GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS, ANY; a verification pattern's: any, as
 * the journal keeps each method as sent), url, urlPath, urlPathPattern, urlPattern, queryParameters, headers,
 * bodyPatterns. The parts are kept as read too, for near misses (distance.mts).
 */
import { fail, isPlainObject, readValuePattern, textValue, wholeRegex, type Value, type ValuePattern } from './content-patterns.mts';
import type { LinearRegex } from './linear-regex.mts';
import { SERVED_METHODS } from '../http/methods.mts';

/** A request as patterns read it (a live request, or one the journal kept). */
export interface RequestView {
	readonly method: string;
	/** The path as sent (percent-encoding kept), e.g. /v2/jobs/job_1. */
	readonly path: string;
	/** The path and query as sent: what `url` and `urlPattern` match. */
	readonly pathAndQuery: string;
	/** A query parameter's values, decoded (none: absent). */
	query(name: string): string[];
	/** A header's value (none: absent); names are case-insensitive. */
	header(name: string): string[];
}

export interface Needed {
	in: 'query' | 'header';
	/** As the request view reads it: a header's name in lower case. */
	name: string;
}

export type UrlRule =
	| { kind: 'any' }
	| { kind: 'url' | 'urlPath'; value: string; path: string }
	/** `pathPrefix`: what every path it matches starts with (the pattern's literal start, up to any `?`); `source`: the expression as given. */
	| { kind: 'urlPattern' | 'urlPathPattern'; regex: LinearRegex; pathPrefix: string; source: string };

/** A pattern's query parameters, headers and body patterns, as read: what near misses and the 404 diff compare one by one (distance.mts). */
export interface PatternParts {
	/** Query parameters by name, in the order given. */
	readonly query: readonly (readonly [string, ValuePattern])[];
	/** Headers by lower-cased name, in the order given. */
	readonly headers: readonly (readonly [string, ValuePattern])[];
	readonly body: readonly Extract<ValuePattern, { absent: false }>[];
}

export interface RequestPattern {
	/** null: any method. */
	readonly method: string | null;
	readonly url: UrlRule;
	readonly parts: PatternParts;
	/** Whether a body pattern needs the body read. */
	readonly needsBody: boolean;
	/** A query parameter or header the request must have to match (the first one with a pattern other than `absent`); undefined: none. */
	readonly needs: Needed | undefined;
	/** The query parameters and headers. */
	matchesHead(view: RequestView): boolean;
	/** The body patterns (the body's text: '' when there is none). */
	matchesBody(body: Value): boolean;
}

const URL_FIELDS = ['url', 'urlPath', 'urlPathPattern', 'urlPattern'] as const;
const SERVED_FIELDS = ['method', ...URL_FIELDS, 'queryParameters', 'headers', 'bodyPatterns'];
const NOT_SERVED_FIELDS: Record<string, string> = {
	urlPathTemplate: 'path templates are not served: use urlPathPattern',
	pathParameters: 'path templates are not served: use urlPathPattern',
	cookies: 'cookie patterns are not served: match the Cookie header instead',
	basicAuthCredentials: 'not served: match the Authorization header instead',
	formParameters: 'form parameters are not served: use bodyPatterns',
	multipartPatterns: 'multipart patterns are not served',
	customMatcher: 'extensions are not served',
	scheme: 'the mock serves one scheme, host and port',
	host: 'the mock serves one scheme, host and port',
	port: 'the mock serves one scheme, host and port',
	clientIp: 'not served',
};
/** The mock's own paths, which no stub may answer. */
const OWN_PREFIXES = ['/__admin', '/__mock'];

export function readRequestPattern(input: unknown, path: string, { forStub }: { forStub: boolean }): RequestPattern {
	if (!isPlainObject(input)) fail(path, 'must be an object such as {"method": "GET", "urlPath": "/v2/jobs"}');
	for (const key of Object.keys(input)) {
		if (SERVED_FIELDS.includes(key)) continue;
		const why = NOT_SERVED_FIELDS[key];
		fail(`${path}.${key}`, why === undefined ? `is no request field WireMock or this mock knows (served: ${SERVED_FIELDS.join(', ')})` : `WireMock's "${key}": ${why}`);
	}
	return {
		method: readMethod(input.method, `${path}.method`, forStub),
		url: readUrl(input, path, forStub),
		...readRest(input, path),
	};
}

/** A method a verification pattern may name: any, as the journal keeps every call with its method as sent (HEAD, PATCH, …). */
const METHOD_NAME = /^[A-Z]+$/;

function readMethod(value: unknown, path: string, forStub: boolean): string | null {
	if (value === undefined || value === 'ANY') return null;
	if (!forStub) {
		if (typeof value !== 'string' || !METHOD_NAME.test(value)) fail(path, `must be a method name in capitals (GET, HEAD, POST, …) or ANY, got ${JSON.stringify(value)}`);
		return value;
	}
	if (typeof value !== 'string' || !(SERVED_METHODS as readonly string[]).includes(value)) {
		fail(path, `must be one of ${SERVED_METHODS.join(', ')} or ANY (the standalone server answers other methods with 405 before any stub sees them), got ${JSON.stringify(value)}`);
	}
	return value;
}

function readUrl(input: Record<string, unknown>, path: string, forStub: boolean): UrlRule {
	const given = URL_FIELDS.filter((field) => input[field] !== undefined);
	if (given.length > 1) fail(path, `give one of ${URL_FIELDS.join(', ')}, not ${given.join(' and ')}`);
	if (given.length === 0) return { kind: 'any' };
	const kind = given[0];
	const at = `${path}.${kind}`;
	const value = input[kind];
	if (typeof value !== 'string') fail(at, 'must be a string');
	if (kind === 'url' || kind === 'urlPath') {
		if (!value.startsWith('/')) fail(at, 'must start with "/"');
		const pathPart = kind === 'url' ? value.split('?')[0] : value;
		if (forStub && OWN_PREFIXES.some((own) => pathPart === own || pathPart.startsWith(`${own}/`))) fail(at, "the mock's own routes (/__admin, /__mock) cannot be stubbed");
		return { kind, value, path: pathPart };
	}
	return { kind, regex: wholeRegex(value, at), pathPrefix: literalPrefix(value).split('?')[0], source: value };
}

/**
 * The text every match of a regular expression starts with (for the store's cheap pre-check): its
 * leading literal characters, without one that a quantifier makes optional. '' when unsure (an
 * alternation anywhere, a class or group first).
 */
export function literalPrefix(source: string): string {
	if (source.includes('|')) return '';
	let out = '';
	let i = source.startsWith('^') ? 1 : 0;
	while (i < source.length) {
		let unit: string;
		const ch = source[i];
		if (ch === '\\') {
			const next = source[i + 1] ?? '';
			// An escaped letter or digit is a class (\d, \w, \s…) or a back-reference; escaped punctuation is itself.
			if (!/[^A-Za-z0-9]/.test(next)) break;
			unit = next;
			i += 2;
		} else if ('.^$*+?()[]{}'.includes(ch)) {
			break;
		} else {
			unit = ch;
			i++;
		}
		const after = source[i] ?? '';
		// A quantifier that allows zero drops the unit; `+` keeps it, but what follows is unknown.
		if (after === '?' || after === '*' || after === '{') break;
		out += unit;
		if (after === '+') break;
	}
	return out;
}

function readRest(input: Record<string, unknown>, path: string): Pick<RequestPattern, 'parts' | 'needsBody' | 'needs' | 'matchesHead' | 'matchesBody'> {
	const query = readPatternMap(input.queryParameters, `${path}.queryParameters`, (name) => name);
	const headers = readPatternMap(input.headers, `${path}.headers`, (name) => name.toLowerCase());
	const body = readBodyPatterns(input.bodyPatterns, `${path}.bodyPatterns`);
	const neededQuery = query.find(([, pattern]) => !pattern.absent)?.[0];
	const neededHeader = headers.find(([, pattern]) => !pattern.absent)?.[0];
	return {
		parts: { query, headers, body },
		needsBody: body.length > 0,
		needs: neededQuery !== undefined ? { in: 'query', name: neededQuery } : neededHeader !== undefined ? { in: 'header', name: neededHeader } : undefined,
		matchesHead: (view) =>
			query.every(([name, pattern]) => matchesValues(pattern, view.query(name))) &&
			headers.every(([name, pattern]) => matchesValues(pattern, view.header(name))),
		matchesBody: (value) => body.every((pattern) => pattern.test(value)),
	};
}

function readPatternMap(input: unknown, path: string, key: (name: string) => string): [string, ValuePattern][] {
	if (input === undefined) return [];
	if (!isPlainObject(input)) fail(path, 'must be an object of name → pattern, e.g. {"page": {"equalTo": "2"}}');
	return Object.entries(input).map(([name, pattern]) => [key(name), readValuePattern(pattern, `${path}.${name}`, true)]);
}

function readBodyPatterns(input: unknown, path: string): Extract<ValuePattern, { absent: false }>[] {
	if (input === undefined) return [];
	if (!Array.isArray(input)) fail(path, 'must be a list of patterns, e.g. [{"contains": "x"}]');
	return input.map((each, i) => {
		const pattern = readValuePattern(each, `${path}[${i}]`, false);
		if (pattern.absent) fail(`${path}[${i}]`, 'absent serves query parameters and headers only');
		return pattern;
	});
}

/** WireMock's rule for a parameter or header: `absent` matches no value; any other pattern needs a value, and one that matches is enough. */
export function matchesValues(pattern: ValuePattern, values: string[]): boolean {
	if (pattern.absent) return values.length === 0;
	return values.some((value) => pattern.test(textValue(value)));
}

/** Whether the URL rule holds for the request (the store's index already knows the path for url and urlPath). */
export function matchesUrl(rule: UrlRule, view: RequestView): boolean {
	switch (rule.kind) {
		case 'any':
			return true;
		case 'url':
			return view.pathAndQuery === rule.value;
		case 'urlPath':
			return view.path === rule.value;
		case 'urlPattern':
			return rule.regex.test(view.pathAndQuery);
		case 'urlPathPattern':
			return rule.regex.test(view.path);
	}
}

/** Whether the request matches the whole pattern (the journal's find and count; a stub's scenario state is the store's). */
export function matchesRequest(pattern: RequestPattern, view: RequestView, body: Value): boolean {
	return (pattern.method === null || pattern.method === view.method) && matchesUrl(pattern.url, view) && pattern.matchesHead(view) && (!pattern.needsBody || pattern.matchesBody(body));
}
