// The regular expressions stubs carry: matched in linear time (the tester's ReDoS cases over HTTP, with a request beside them; a fast-check property over nested quantifiers and near-miss texts of a few KB, checked against JavaScript's own engine on short texts), kept inside their anchors, and the Java constructs RE2 cannot serve refused at creation, named.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { adminErrorSchema } from '../src/wiremock/admin-error.mts';
import { compileLinear, MAX_PROGRAM_SIZE, RegexRefused } from '../src/wiremock/linear-regex.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';

const whole = (source: string) => compileLinear(source, { whole: true, dotAll: true });
const refusal = (source: string): string => {
	try {
		whole(source);
	} catch (error) {
		if (error instanceof RegexRefused) return error.message;
		throw error;
	}
	throw new Error(`${source} was not refused`);
};

/**
 * A bound only a stall breaks: a backtracking engine takes minutes (the 34-character case) or longer than the
 * universe (4 KB) on these texts, RE2's engine milliseconds; generous so a busy machine cannot fail it. The figure
 * under an idle machine is bench/regex-worst.mts's.
 */
const STALL_MS = 2000;

describe('what a pattern matches', () => {
	it.each([
		['a|b', ['a', 'b'], ['ab', 'xa', '']],
		['/v2/jobs/[^/]+', ['/v2/jobs/job_1'], ['/v2/jobs/', '/v2/jobs/a/b', 'x/v2/jobs/a']],
		['a.b', ['a\nb', 'a-b'], ['ab']],
		['(?i)abc', ['ABC', 'abc'], ['abd']],
		['\\u0041\\x{42}', ['AB'], ['\\u0041B']],
		['\\uD83D\\uDE00', ['😀'], ['\uD83D']],
		['\\0101', ['A'], ['\b1']],
		['\\\\u0041', ['\\u0041'], ['A']],
		['\\Q.*\\E', ['.*'], ['ab']],
		['[[:alpha:]]+', ['abc'], ['a1']],
		['[]a]+', [']a]'], ['b']],
		['(?<year>\\d{4})-\\d{2}', ['2026-11'], ['26-11']],
	])('%s', (source, matched, unmatched) => {
		const regex = whole(source);
		for (const text of matched) expect(regex.test(text), text).toBe(true);
		for (const text of unmatched) expect(regex.test(text), text).toBe(false);
	});

	it('a part of the text, when asked so (JSONPath =~), with the flags given', () => {
		expect(compileLinear('b+', { whole: false, dotAll: false }).test('abbc')).toBe(true);
		expect(compileLinear('a.c', { whole: false, dotAll: false }).test('a\nc')).toBe(false);
		expect(compileLinear('a.c', { whole: false, dotAll: true }).test('a\nc')).toBe(true);
		expect(compileLinear('^b$', { whole: false, dotAll: false, multiline: true }).test('a\nb\nc')).toBe(true);
		expect(compileLinear('B', { whole: false, dotAll: false, caseInsensitive: true }).test('abc')).toBe(true);
	});
});

describe('refused at creation, naming the construct', () => {
	it.each([
		['/x)|(.*', /^not a regular expression RE2's syntax reads \(unexpected \): `\/x\)\|\(\.\*`\)$/],
		['(a)\\1', /^back-reference \\1 is not served/],
		['(?<n>a)\\k<n>', /^back-reference \\k<name> is not served/],
		['a(?=b)', /^lookahead \(\?=…\) is not served: linear-time matching cannot/],
		['a(?!b)', /^negative lookahead \(\?!…\)/],
		['(?<=a)b', /^lookbehind \(\?<=…\)/],
		['(?<!a)b', /^negative lookbehind \(\?<!…\)/],
		['(?>a+)b', /^atomic group \(\?>…\)/],
		['a*+b', /^possessive quantifier \*\+ is not served/],
		['a++b', /^possessive quantifier \+\+/],
		['(?:ab)?+', /^possessive quantifier \?\+/],
		['a{2,3}+', /^possessive quantifier \}\+/],
		['a\\Z', /^\\Z \(end before a final line break\) is not served/],
		['\\h+', /^\\h \(horizontal whitespace\) is not served/],
		['\\v', /^\\v is any vertical whitespace in Java but the vertical tab in RE2/],
		['[a-z&&[^b]]', /^class intersection/],
		['[a[bc]]', /^a class inside a class/],
		['\\0', /^\\0 must be followed by an octal digit/],
		['(?x) a', /unsupported Perl syntax: `\(\?x`/],
		['\\p{javaLowerCase}', /invalid character class range: `\\p\{javaLowerCase\}`/],
		['a{1001}', /invalid repeat count/],
		['.{500}', new RegExp(`^compiles to 502 instructions, more than the ${MAX_PROGRAM_SIZE} the mock matches`)],
	])('%s', (source, message) => {
		expect(refusal(source)).toMatch(message);
	});

	it('what only looks like those constructs is served', () => {
		for (const source of ['\\(?=x\\)', '[(?=]+', '\\Q(?=\\E', 'a\\++', '[*+]+', 'x}+', '\\\\1']) expect(() => whole(source), source).not.toThrow();
		expect(whole('x}+').test('x}}')).toBe(true);
		expect(whole('\\Q(?=\\E').test('(?=')).toBe(true);
	});
});

describe('over HTTP: the tester\'s ReDoS cases', () => {
	let server: RunningMockServer;
	beforeAll(async () => {
		server = await startMockServer({ ...SMALL, port: 0 });
	});
	afterAll(async () => {
		await server?.close();
	});
	const addStub = (mapping: unknown) =>
		fetch(`${server.appUrl}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mapping) });
	const auth = { authorization: `Bearer ${DEMO_TOKEN}` };

	it('a stub with urlPathPattern /redos/(a+)+b: a near-miss 34-character path, and a /v2 request beside it, are both answered', async () => {
		expect((await addStub({ request: { method: 'GET', urlPathPattern: '/redos/(a+)+b' }, response: { status: 299 } })).status).toBe(201);
		const nearMiss = `/redos/${'a'.repeat(27)}`;
		expect(nearMiss).toHaveLength(34);
		const started = performance.now();
		const [missed, beside, hit] = await Promise.all([
			fetch(`${server.appUrl}${nearMiss}`, { signal: AbortSignal.timeout(STALL_MS * 5) }),
			fetch(`${server.apiUrl}/collections`, { headers: auth, signal: AbortSignal.timeout(STALL_MS * 5) }),
			fetch(`${server.appUrl}${nearMiss}b`, { signal: AbortSignal.timeout(STALL_MS * 5) }),
		]);
		const took = performance.now() - started;
		expect([missed.status, beside.status, hit.status]).toEqual([404, 200, 299]);
		expect(took).toBeLessThan(STALL_MS);
	});

	it('a pattern that would leave its anchors (/x)|(.*) is a 400 naming it, and GET /v2/collections stays the service\'s', async () => {
		const answer = await addStub({ request: { method: 'GET', urlPathPattern: '/x)|(.*' }, response: { status: 299 } });
		expect(answer.status).toBe(400);
		const [error] = adminErrorSchema.parse(await answer.json()).errors;
		expect(error).toMatchObject({ code: 10, source: { pointer: '/request/urlPathPattern' }, title: 'Error parsing JSON' });
		expect(error.detail).toMatch(/^Invalid mapping: request\.urlPathPattern: "\/x\)\|\(\.\*": not a regular expression RE2's syntax reads \(unexpected \)/);
		expect((await fetch(`${server.apiUrl}/collections`, { headers: auth })).status).toBe(200);
		expect(server.service.stubs.list().some((mapping) => JSON.stringify(mapping).includes('/x)|(.*'))).toBe(false);
	});

	it('a lookahead in a header pattern is a 400 naming the pattern and the construct', async () => {
		const answer = await addStub({ request: { headers: { 'x-a': { matches: '(?=a)a' } } }, response: { status: 299 } });
		expect(answer.status).toBe(400);
		expect(adminErrorSchema.parse(await answer.json()).errors[0].detail).toMatch(/^Invalid mapping: request\.headers\.x-a\.matches: "\(\?=a\)a": lookahead \(\?=…\) is not served/);
	});
});

/**
 * Patterns from a small grammar that a backtracking engine stalls on (nested and adjacent quantifiers over
 * overlapping atoms, alternations of overlapping branches), and texts that almost match them.
 */
const atom = fc.constantFrom('a', 'b', 'ab', '.', '[ab]', '\\w', 'a?');
const quantifier = fc.constantFrom('*', '+', '?', '{1,3}', '{2,}', '');
const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
	node: fc.oneof(
		{ depthSize: 'small', withCrossShrink: true },
		atom,
		fc.tuple(tie('node'), quantifier).map(([inner, q]) => `(?:${inner})${q}`),
		fc.tuple(tie('node'), tie('node')).map(([x, y]) => `${x}${y}`),
		fc.tuple(tie('node'), tie('node')).map(([x, y]) => `(?:${x}|${y})`),
	),
})).node.map((body) => `(?:${body})+c`);
const nearMiss = fc.tuple(fc.constantFrom('a', 'ab', 'aab', 'b'), fc.integer({ min: 1, max: 4096 }), fc.constantFrom('', '!', 'a', 'cc')).map(([unit, length, tail]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length) + tail);

describe('linear time, whatever the pattern (fast-check: numRuns 300, seed 36)', () => {
	it('each match of a random nested-quantifier pattern on a near-miss text of up to 4 KB ends well inside a stall bound; on short texts it agrees with JavaScript\'s engine', () => {
		let slowest = { ms: 0, source: '', length: 0 };
		fc.assert(
			fc.property(pattern, nearMiss, (source, text) => {
				const regex = whole(source);
				const started = performance.now();
				const matched = regex.test(text);
				const ms = performance.now() - started;
				if (ms > slowest.ms) slowest = { ms, source, length: text.length };
				expect(ms, `${source} on ${text.length} characters`).toBeLessThan(STALL_MS);
				// Short enough for a backtracking engine to finish (12 characters already took it a minute): the same answer as JavaScript's (same syntax here).
				const short = text.slice(0, 5);
				expect(regex.test(short), `${source} on ${JSON.stringify(short)}`).toBe(new RegExp(`^(?:${source})$`, 's').test(short));
				if (text.length <= 5) expect(matched).toBe(new RegExp(`^(?:${source})$`, 's').test(text));
			}),
			{ numRuns: 300, seed: 36 },
		);
		console.log(`slowest match: ${slowest.ms.toFixed(1)} ms, ${slowest.source} on ${slowest.length} characters`);
	});
});
