// The bound on what stubs' regular expressions may cost a request, counted, not timed: every match and compile the engine really runs (re2js's RE2Set, spied on) is paid for from the request's WORK_BUDGET, whatever the stubs and the request (fast-check, and 1,000 of the worst accepted pattern); a match the budget cannot pay for is not run, its stub does not match (doesNotMatch included) and the answer says why; the budget at and one step past its edge; the compiled engines kept, at and past LIVE_PATTERNS, each with its DFA cache bounded.
import fc from 'fast-check';
import { getResponse } from 'msw';
import { RE2Set } from 're2js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENDPOINTS } from '../src/base/contract.mts';
import { createMockService, type MockService } from '../src/service.mts';
import { compileLinear, compileWork, DFA_MEMORY, LIVE_PATTERNS, livePatterns, withPatternBudget, WORK_BUDGET, WorkBudgetExceeded, WorkMeter } from '../src/wiremock/linear-regex.mts';
import { accepted, randomAb, worstPatternAfter } from '../bench/regex-worst-cases.mts';
import { APP_URL, DEMO_TOKEN, SMALL } from './harness.mts';

/** What the engine really did since the last reset: each match's program size × (characters + 1), and each compile's price. */
const engine = { work: 0, matches: 0, compiles: 0, memories: new Set<number>() };
const resetCount = () => Object.assign(engine, { work: 0, matches: 0, compiles: 0, memories: new Set<number>() });
const originalMatch = RE2Set.prototype.match;
const originalCompile = RE2Set.prototype.compile;
beforeAll(() => {
	vi.spyOn(RE2Set.prototype, 'match').mockImplementation(function (this: RE2Set, input) {
		engine.matches++;
		engine.work += this.prog.numInst() * ((input as string).length + 1);
		return originalMatch.call(this, input);
	});
	vi.spyOn(RE2Set.prototype, 'compile').mockImplementation(function (this: RE2Set) {
		const fresh = (this.prog as RE2Set['prog'] | null) === null;
		originalCompile.call(this);
		if (!fresh) return;
		engine.compiles++;
		engine.work += compileWork(this.prog.numInst());
		engine.memories.add(this.maxMem);
	});
});
afterAll(() => vi.restoreAllMocks());

const whole = (source: string) => compileLinear(source, { whole: true, dotAll: true });
const WORST = worstPatternAfter('');
/** msw reads URLs of at most 8,192 characters (the standalone server's header limit is 16 KB): the longest paths sent here. */
const LONG_PATH = 8_000;

describe('the budget, at its edge', () => {
	it(`${WORST} (the worst accepted pattern, ${whole(WORST).size} instructions) runs on the longest text the budget pays for with its compile, and not on one character more`, () => {
		const size = whole(WORST).size;
		const fits = Math.floor((WORK_BUDGET - compileWork(size)) / size) - 1;
		const cost = size * (fits + 1) + compileWork(size);
		expect(cost).toBeLessThanOrEqual(WORK_BUDGET);
		expect(cost + size).toBeGreaterThan(WORK_BUDGET);
		resetCount();
		const meter = new WorkMeter();
		withPatternBudget(meter, () => whole(WORST).test(randomAb(fits, 1)));
		expect([meter.used, engine.work, engine.matches, engine.compiles]).toEqual([cost, cost, 1, 1]);

		resetCount();
		const over = new WorkMeter();
		expect(() => withPatternBudget(over, () => whole(WORST).test(randomAb(fits + 1, 1)))).toThrow(WorkBudgetExceeded);
		expect([over.used, engine.work, engine.matches, engine.compiles]).toEqual([0, 0, 0, 0]);
	});

	it('the budget is the request\'s: what one match took is not there for the next; a cheaper match still fits', () => {
		const meter = new WorkMeter();
		const big = whole('[ab]{100}');
		const text = randomAb(4_000, 2);
		const cost = big.size * (text.length + 1);
		// Compiled first (and kept): the matches below cost their steps only.
		withPatternBudget(new WorkMeter(), () => big.test(''));
		const runs = Math.floor(WORK_BUDGET / cost);
		for (let i = 0; i < runs; i++) withPatternBudget(meter, () => big.test(text));
		const left = (WORK_BUDGET - runs * cost).toLocaleString('en');
		expect(() => withPatternBudget(meter, () => big.test(text))).toThrow(`pattern "[ab]{100}" (${big.size} instructions) on a text of 4000 characters: ${cost.toLocaleString('en')} steps, and only ${left} of the ${WORK_BUDGET.toLocaleString('en')} a request's patterns may take are left`);
		expect(meter.used).toBe(runs * cost);
		expect(withPatternBudget(meter, () => big.test('ab'))).toBe(false);
	});
});

describe('the compiled engines kept', () => {
	it(`at most LIVE_PATTERNS (${LIVE_PATTERNS}), the least recently used dropped and compiled again (and paid for) when next used; each with a DFA cache of DFA_MEMORY bytes`, () => {
		const patterns = Array.from({ length: LIVE_PATTERNS + 5 }, (_, i) => whole(`kept-${i}-[a-z]+`));
		resetCount();
		patterns.slice(0, LIVE_PATTERNS).forEach((pattern, i) => expect(pattern.test(`kept-${i}-x`)).toBe(true));
		expect(livePatterns()).toBe(LIVE_PATTERNS);
		expect(engine.compiles).toBe(LIVE_PATTERNS);
		// At the cap, the first is used again: kept, nothing compiled, and it becomes the most recent.
		const meter = new WorkMeter();
		expect(withPatternBudget(meter, () => patterns[0].test('kept-0-y'))).toBe(true);
		expect([engine.compiles, meter.used]).toEqual([LIVE_PATTERNS, patterns[0].size * 9]);
		// Past it: each new one drops the least recently used (patterns[1], [2], … not [0]).
		patterns.slice(LIVE_PATTERNS).forEach((pattern, i) => expect(pattern.test(`kept-${LIVE_PATTERNS + i}-x`)).toBe(true));
		expect(livePatterns()).toBe(LIVE_PATTERNS);
		expect(engine.compiles).toBe(LIVE_PATTERNS + 5);
		patterns[0].test('kept-0-z');
		expect(engine.compiles).toBe(LIVE_PATTERNS + 5);
		const again = new WorkMeter();
		expect(withPatternBudget(again, () => patterns[1].test('kept-1-x'))).toBe(true);
		expect([engine.compiles, again.used]).toEqual([LIVE_PATTERNS + 6, patterns[1].size * 9 + compileWork(patterns[1].size)]);
		expect(livePatterns()).toBe(LIVE_PATTERNS);
		expect([...engine.memories]).toEqual([DFA_MEMORY]);
	});
});

describe('a request against pattern stubs, in-process', () => {
	let mock: MockService;
	beforeAll(async () => {
		mock = await createMockService(SMALL);
	});
	beforeEach(() => mock.stubs.reset());
	afterAll(() => mock.close());
	afterEach(() => resetCount());

	const send = async (url: string, init: RequestInit = {}) => {
		resetCount();
		const response = await getResponse(mock.handlers, new Request(url, init));
		// No answer (0): in-process, the request is left to msw's onUnhandledRequest.
		if (response === undefined) return { status: 0, warnings: null, work: engine.work, text: '' };
		return { status: response.status, warnings: response.headers.get('x-mock-warning'), work: engine.work, text: await response.text() };
	};

	it(`a path the worst pattern cannot afford: the stub does not match, the answer is a 404 naming the stub and the work, and a plain stub beside it answers`, async () => {
		const id = mock.stubs.add({ request: { method: 'GET', urlPathPattern: worstPatternAfter('/hostile/') }, response: { status: 299 } }).id;
		mock.stubs.add({ request: { method: 'GET', urlPath: '/plain' }, response: { status: 298 } });
		const long = await send(`${APP_URL}/hostile/${randomAb(LONG_PATH - 9, 3)}`);
		const budget = WORK_BUDGET.toLocaleString('en');
		expect(long.status).toBe(404);
		expect(long.warnings).toMatch(new RegExp(`^stub ${id} not matched: pattern "/hostile/\\[ab\\]\\*a\\[ab\\]\\{\\d+\\}" \\(\\d+ instructions\\) on a text of ${LONG_PATH} characters: [\\d,]+ steps, and only ${budget} of the ${budget} a request's patterns may take are left$`));
		expect(long.work).toBe(0);
		expect((await send(`${APP_URL}/plain`)).status).toBe(298);
		// A path it can afford is matched as before: no match is no answer (nothing was over the budget), a match the stub's.
		expect(await send(`${APP_URL}/hostile/${'b'.repeat(500)}a${'a'.repeat(16)}`)).toMatchObject({ status: 0, warnings: null });
		const short = `/hostile/${'a'.repeat(600)}`;
		const answered = await send(`${APP_URL}${short}`);
		expect([answered.status, answered.warnings]).toEqual([299, null]);
		expect(answered.work).toBeLessThanOrEqual(WORK_BUDGET);
	});

	it('over the budget, doesNotMatch does not match either; the service still answers, with the note, in its journal too', async () => {
		const id = mock.stubs.add({ request: { method: 'POST', urlPath: ENDPOINTS.createWebhook.path, bodyPatterns: [{ doesNotMatch: WORST }] }, response: { status: 299 } }).id;
		const body = JSON.stringify({ url: `https://example.com/${randomAb(10_000, 4)}`, events: ['signal.created'] });
		const answer = await send(`${APP_URL}${ENDPOINTS.createWebhook.path}`, { method: 'POST', headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' }, body });
		expect(answer.status).not.toBe(299);
		expect(answer.warnings).toMatch(new RegExp(`^stub ${id} not matched: pattern`));
		const journaled = mock.requests({ path: ENDPOINTS.createWebhook.path }).data.at(-1);
		expect(journaled?.warnings.some((warning) => warning.startsWith(`stub ${id} not matched`))).toBe(true);
		// A body it can afford: doesNotMatch matches.
		expect((await send(`${APP_URL}${ENDPOINTS.createWebhook.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(299);
	});

	it(`1,000 stubs of the worst pattern on one folder and the longest path: the request's engine work stays within the budget, and it is answered`, async () => {
		const pattern = worstPatternAfter('/many/');
		for (let i = 0; i < 1000; i++) mock.stubs.add({ request: { method: 'GET', urlPathPattern: pattern }, response: { status: 299 } });
		const answer = await send(`${APP_URL}/many/${randomAb(LONG_PATH - 6, 5)}`);
		expect(answer.status).toBe(404);
		expect(answer.work).toBeLessThanOrEqual(WORK_BUDGET);
		// A path each can afford: the first few run, then the rest are over the budget, each noted.
		const mid = await send(`${APP_URL}/many/${'b'.repeat(500)}`);
		expect(mid.work).toBeLessThanOrEqual(WORK_BUDGET);
		expect(mid.work).toBeGreaterThan(WORK_BUDGET / 2);
		expect(mid.status).toBe(404);
	});

	it('a verification query over the journal that the budget cannot pay for is a 400 naming why, not a stall or a part answer', async () => {
		mock.stubs.add({ request: { method: 'GET', urlPathPattern: '/hostile/.*' }, response: { status: 299 } });
		for (let i = 0; i < 3; i++) expect((await send(`${APP_URL}/hostile/${randomAb(1_000, i)}`)).status).toBe(299);
		expect(() => mock.requests.count({ urlPathPattern: worstPatternAfter('/hostile/') })).toThrow(/^request pattern: its regular expressions over the journal's \d+ calls are more work than one query may take \(pattern/);
	});

	/**
	 * Stubs of patterns from a grammar with large repeats and nested quantifiers, on the URL, a header and the body,
	 * and a request whose path, header and body are long a/b texts: the engine's real work (the spies) never passes
	 * the budget, whatever the mix.
	 */
	const atom = fc.constantFrom('a', 'b', '[ab]', '.', 'a?', '\\w');
	const piece = fc.oneof(
		atom,
		fc.tuple(atom, fc.integer({ min: 1, max: 240 })).map(([a, n]) => `${a}{${n}}`),
		fc.tuple(atom, atom, fc.constantFrom('*', '+', '?', '{1,3}')).map(([a, b, q]) => `(?:${a}|${a}${b})${q}`),
	);
	const source = fc.array(piece, { minLength: 1, maxLength: 4 }).map((pieces) => `[ab]*${pieces.join('')}`).filter(accepted);
	const stub = fc.tuple(fc.constantFrom('url', 'header', 'body', 'bodyNot'), source);
	// Bodies up to 50 KB: in-process, a stub answer to a POST of about 126 KB never ends (the journal's copy of the body: not this bound's).
	const BODY = 50_000;
	it('whatever the stubs and the request, the engine\'s work for it stays within WORK_BUDGET (fast-check: numRuns 40, seed 3636)', { timeout: 240_000 }, async () => {
		let most = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(stub, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: LONG_PATH - 6 }), fc.integer({ min: 0, max: BODY }), async (stubs, pathLength, bodyLength) => {
				mock.stubs.reset();
				for (const [where, pattern] of stubs) {
					const request = where === 'url' ? { urlPathPattern: `/prop/${pattern}` } : where === 'header' ? { urlPathPattern: '/prop/.*', headers: { 'x-p': { matches: pattern } } } : { urlPathPattern: '/prop/.*', bodyPatterns: [{ [where === 'body' ? 'matches' : 'doesNotMatch']: pattern }] };
					mock.stubs.add({ request: { method: 'POST', ...request }, response: { status: 299 } });
				}
				const answer = await send(`${APP_URL}/prop/${randomAb(pathLength, pathLength)}`, { method: 'POST', headers: { 'x-p': randomAb(pathLength, 7) }, body: randomAb(bodyLength, bodyLength) });
				expect([0, 299, 404]).toContain(answer.status);
				expect(answer.work).toBeLessThanOrEqual(WORK_BUDGET);
				most = Math.max(most, answer.work);
			}),
			{ numRuns: 40, seed: 3636 },
		);
		// The property reached the bound's neighbourhood, so it tested something.
		expect(most).toBeGreaterThan(WORK_BUDGET / 2);
	});
});
