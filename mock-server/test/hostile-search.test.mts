// Hostile job searches (thousands of terms, one-letter terms, long terms, odd characters) at the default data size: over the limits they get a 400 that names the limit; within them the answer is exact and the search pauses for other requests once a turn's share of work is spent. The time a turn's share takes is measured by mock-server/bench/hostile-search.mts, not here.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS, jobSearchEnvelopeSchema, readSearch } from '../src/base/contract.mts';
import { matches } from '../src/search/expression.mts';
import { searchJobs } from '../src/search/job-search.mts';
import { STEPS_PER_TURN, Work } from '../src/base/work.mts';
import { call, expectApiError, ok, useMock } from './harness.mts';

// No reset between the tests: they only read, and a reset loads the 100,000 jobs again.
const mock = useMock({ rateLimit: 0 }, { resetBeforeEach: false });

/** The largest piece of work the search does without checking its count: one job checked against the most terms a search may have. */
const LARGEST_STEP = 50_000;

const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzé1 -.'.split(''));
const word = fc.oneof(
	letter,
	fc.string({ unit: letter, minLength: 1, maxLength: 3 }),
	fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }),
	fc.string({ unit: letter, minLength: 150, maxLength: 260 }),
);
/** Terms joined by every separator the syntax has; sometimes thousands of them. */
const hostile = fc
	.tuple(fc.array(fc.tuple(fc.constantFrom(',', '|', '+', ' ', ',-', '+-'), word), { minLength: 1, maxLength: 140 }), fc.integer({ min: 1, max: 20 }))
	.map(([parts, repeat]) => Array.from({ length: repeat }, () => parts.map(([separator, w], i) => (i === 0 ? w : `${separator}${w}`)).join('')).join(','));

/** The test's own reading of the limits: every word of every term, and the longest term. */
function overLimit(text: string): boolean {
	const expression = readSearch(text);
	const terms = [...expression.exclude, ...expression.alternatives.flatMap((a) => [...a.include, ...a.exclude])];
	const words = terms.reduce((sum, term) => sum + term.split(' ').length, 0);
	return words > LIMITS.maxSearchWords || terms.some((term) => term.length > LIMITS.maxSearchTermLength);
}

describe('hostile job searches', () => {
	it('the issue\'s search (2,000 one-letter OR terms) is refused with a 400 that names the limit', async () => {
		const search = Array.from({ length: 2000 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[i % 26]).join('|');
		const answer = await call(`/jobs?search=${encodeURIComponent(search)}`);
		expectApiError(answer, 400, new RegExp(`"search": its terms have 2000 words in all; at most ${LIMITS.maxSearchWords}`));
		const long = await call(`/jobs?locations=${'x'.repeat(LIMITS.maxSearchTermLength + 1)}`);
		expectApiError(long, 400, new RegExp(`"locations": a term is ${LIMITS.maxSearchTermLength + 1} characters long; at most ${LIMITS.maxSearchTermLength}`));
	});

	it(`a search at the limit (${LIMITS.maxSearchWords} one-letter terms) is answered, and pauses between turns`, async () => {
		const search = Array.from({ length: LIMITS.maxSearchWords }, (_, i) => 'etaoinshrdlu'[i % 12]).join('|');
		expect(overLimit(search)).toBe(false);
		const page = await ok(jobSearchEnvelopeSchema, `/jobs?search=${encodeURIComponent(search)}`);
		expect(page.metrics.count_jobs).toBeGreaterThan(0);
		let pauses = 0;
		const work = new Work(async () => void pauses++);
		await searchJobs(mock.service.store.searchScopeOf('acc_demo'), { search, categories: [], job_tags: [], industry_tags: [] }, work);
		// A hundred one-letter terms each set most of the 100,000 jobs' serials: many turns' worth of work.
		expect(pauses).toBeGreaterThan(20);
		expect(work.maxPerTurn).toBeLessThanOrEqual(STEPS_PER_TURN + LARGEST_STEP);
	});

	// 25 runs, each a search of the 100,000 jobs and its reference check: seconds of CPU, 46 s at a load of 25-33.
	it('property: over the limits a 400 naming the limit; within them the exact answer, never more than a turn\'s share of work between pauses', { timeout: 300_000 }, async () => {
		const jobs = mock.service.store.jobsOf('acc_demo');
		await fc.assert(
			fc.asyncProperty(hostile, fc.boolean(), async (text, inLocations) => {
				const param = inLocations ? 'locations' : 'search';
				if (overLimit(text)) {
					const answer = await call(`/jobs?${param}=${encodeURIComponent(text)}`);
					expectApiError(answer, 400, new RegExp(`"${param}": .*at most (${LIMITS.maxSearchWords}|${LIMITS.maxSearchTermLength})`));
					return;
				}
				const work = new Work(async () => undefined);
				const query = { [param]: text, categories: [], job_tags: [], industry_tags: [] };
				const found = await searchJobs(mock.service.store.searchScopeOf('acc_demo'), query, work);
				expect(work.maxPerTurn).toBeLessThanOrEqual(STEPS_PER_TURN + LARGEST_STEP);
				const expression = readSearch(text);
				const expected = jobs.filter((j) => matches(expression, inLocations ? j.places : j.text)).map((j) => j.job.job_id);
				expect(found.map((j) => j.job.job_id)).toEqual(expected);
			}),
			{ numRuns: 25 },
		);
	});
});
