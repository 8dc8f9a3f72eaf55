/**
 * How far a request is from a request pattern: the mock's distance for near misses and the 404 diff (README,
 * "Near misses and the 404 diff"). Pure: a pattern, a request, whether the stub's scenario is in its state; nothing is read or kept.
 *
 * The distance is the weighted mean of the distances of the fields the pattern names (a field it leaves out is
 * not counted): the URL rule weighs 10, the method 3, each query parameter, header and body pattern 1, and a
 * stub's scenario state 1. A field's distance is 0 when it matches; when it does not, the text distance (below)
 * for a field whose pattern is one text (`url`, `urlPath`, `equalTo`; at least 1 / the longer text's length),
 * else 1. So 0 is a match, 1 matches in nothing, and a typo in a long path is closer than another path.
 *
 * The text distance of two texts is the share of the longer one outside their common start and common end
 * (`/v2/jobs` and `/v2/jbs`: 1 − 6/8 = 0.25): linear in the texts' length, unlike an edit distance, so a
 * request of the largest size the mock takes costs what reading it does.
 */
import type { Value, ValuePattern } from './content-patterns.mts';
import { matchesUrl, matchesValues, type PatternParts, type RequestView, type UrlRule } from './request-pattern.mts';

export const WEIGHTS = { url: 10, method: 3, query: 1, header: 1, body: 1, scenario: 1 } as const;

/** One field of the pattern against the request: what the diff shows of each side, and its distance. */
export interface FieldResult {
	kind: keyof typeof WEIGHTS;
	/** The pattern's side, e.g. `GET`, `/v2/jobs`, `x-a: [equalTo] 1`. */
	expected: string;
	/** The request's side (`(absent)` for a missing header or parameter). */
	actual: string;
	/** 0 when the field matches; in (0, 1] when not. */
	distance: number;
}

export interface MatchResult {
	/** The weighted mean of the fields' distances; 0 when the pattern names nothing. */
	distance: number;
	fields: FieldResult[];
}

/** What is compared: a pattern's method, URL rule and parts, and a stub's scenario when it has one. */
export interface Comparable {
	readonly method: string | null;
	readonly url: UrlRule;
	readonly parts: PatternParts;
}

export interface ScenarioCheck {
	name: string;
	/** The state the stub needs. */
	required: string;
	/** The state the scenario is in. */
	current: string;
}

const ABSENT = '(absent)';

export function compare(pattern: Comparable, request: RequestView, body: Value, scenario?: ScenarioCheck): MatchResult {
	const fields: FieldResult[] = [];
	if (pattern.method !== null) fields.push({ kind: 'method', expected: pattern.method, actual: request.method, distance: pattern.method === request.method ? 0 : 1 });
	if (pattern.url.kind !== 'any') fields.push(urlField(pattern.url, request));
	for (const [name, value] of pattern.parts.query) fields.push(valueField('query', name, value, request.query(name)));
	for (const [name, value] of pattern.parts.headers) fields.push(valueField('header', name, value, request.header(name)));
	for (const value of pattern.parts.body) {
		const matches = value.test(body);
		const distance = matches ? 0 : value.expected ? textDistance(value.expected.text, body.text, value.expected.caseInsensitive) : 1;
		fields.push({ kind: 'body', expected: `body ${value.shown}`, actual: body.text, distance });
	}
	if (scenario !== undefined) {
		fields.push({
			kind: 'scenario',
			expected: `scenario "${scenario.name}" in state "${scenario.required}"`,
			actual: `scenario "${scenario.name}" in state "${scenario.current}"`,
			distance: scenario.required === scenario.current ? 0 : 1,
		});
	}
	let weights = 0;
	let sum = 0;
	for (const field of fields) {
		weights += WEIGHTS[field.kind];
		sum += WEIGHTS[field.kind] * field.distance;
	}
	return { distance: weights === 0 ? 0 : sum / weights, fields };
}

function urlField(rule: Exclude<UrlRule, { kind: 'any' }>, request: RequestView): FieldResult {
	const withQuery = rule.kind === 'url' || rule.kind === 'urlPattern';
	const actual = withQuery ? request.pathAndQuery : request.path;
	const matches = matchesUrl(rule, request);
	if ('regex' in rule) return { kind: 'url', expected: `[${rule.kind}] ${rule.source}`, actual, distance: matches ? 0 : 1 };
	return { kind: 'url', expected: rule.value, actual, distance: matches ? 0 : textDistance(rule.value, actual, false) };
}

function valueField(kind: 'query' | 'header', name: string, pattern: ValuePattern, values: string[]): FieldResult {
	const expected = `${name}: ${pattern.absent ? '[absent]' : pattern.shown}`;
	const actual = `${name}: ${values.length === 0 ? ABSENT : values.join(', ')}`;
	if (matchesValues(pattern, values)) return { kind, expected, actual, distance: 0 };
	if (pattern.absent || values.length === 0 || pattern.expected === undefined) return { kind, expected, actual, distance: 1 };
	const { text, caseInsensitive } = pattern.expected;
	return { kind, expected, actual, distance: Math.min(...values.map((value) => textDistance(text, value, caseInsensitive))) };
}

/** The share of the longer text outside the two texts' common start and common end; 0 only for equal texts. */
export function textDistance(a: string, b: string, caseInsensitive: boolean): number {
	const x = caseInsensitive ? a.toLowerCase() : a;
	const y = caseInsensitive ? b.toLowerCase() : b;
	if (x === y) return 0;
	const shorter = Math.min(x.length, y.length);
	let start = 0;
	while (start < shorter && x[start] === y[start]) start++;
	let end = 0;
	// The common end may not overlap the common start (`aa` and `aaa`: 2 shared, not 4).
	while (end < shorter - start && x[x.length - 1 - end] === y[y.length - 1 - end]) end++;
	return 1 - (start + end) / Math.max(x.length, y.length);
}
