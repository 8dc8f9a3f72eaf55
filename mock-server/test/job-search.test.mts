// Job search: offset pages of 100, metrics, the spec's search syntax, locations (cities and regions), repeated categories, bad input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS, JOB_CATEGORIES, jobSearchEnvelopeSchema, type Job } from '../src/base/contract.mts';
import { call, expectApiError, expectNewestFirst, ok, SECOND_TOKEN, useMock } from './harness.mts';

const mock = useMock();
const PAGE = LIMITS.jobSearchPageSize;
const AI = 'Artificial Intelligence, Data Science, & Machine Learning';

type Query = { search?: string; locations?: string; categories?: string[]; job_tags?: string[]; industry_tags?: string[] };

function searchPath(query: Query, offset?: number): string {
	const params = new URLSearchParams();
	if (query.search !== undefined) params.set('search', query.search);
	if (query.locations !== undefined) params.set('locations', query.locations);
	for (const c of query.categories ?? []) params.append('categories', c);
	for (const t of query.job_tags ?? []) params.append('job_tags', t);
	for (const t of query.industry_tags ?? []) params.append('industry_tags', t);
	if (offset !== undefined) params.set('offset', String(offset));
	const text = params.toString();
	return text === '' ? '/jobs' : `/jobs?${text}`;
}

/** Every page from offset 0 on; returns the jobs and the count_jobs every page reported. */
async function searchAll(query: Query, token?: string): Promise<{ jobs: Job[]; counts: number[] }> {
	const jobs: Job[] = [];
	const counts: number[] = [];
	for (let offset = 0; offset < 200 * PAGE; offset += PAGE) {
		const page = await ok(jobSearchEnvelopeSchema, searchPath(query, offset), token);
		counts.push(page.metrics.count_jobs);
		jobs.push(...page.data);
		if (page.data.length < PAGE) return { jobs, counts };
	}
	throw new Error('search did not end');
}

const ids = (jobs: readonly Job[]) => jobs.map((j) => j.job_id);

/** The account's jobs, by the test's own reading of the data: every job of a tracked source. */
function accountJobs(accountId = 'acc_demo'): Job[] {
	const { store } = mock.service;
	return [...store.jobs.values()]
		.map((j) => j.job)
		.filter((j) => store.tracks(accountId, j.source_id))
		.sort((a, b) => b.created_at - a.created_at || (a.job_id < b.job_id ? 1 : -1));
}

/** What `search` matches per the spec: tags and the full posting text. */
const postingText = (j: Job) => [j.job_title, j.description, ...j.job_tags, ...j.categories].join('\n').toLowerCase();
const has = (j: Job, term: string) => postingText(j).includes(term.toLowerCase());

describe('job search', () => {
	it('with no filter returns all of the account\'s jobs, newest first, in offset pages of 100 with the full count', async () => {
		const expected = accountJobs();
		const { jobs, counts } = await searchAll({});
		expect(ids(jobs)).toEqual(ids(expected));
		expect(new Set(counts)).toEqual(new Set([expected.length]));
		expectNewestFirst(jobs.map((j) => ({ created_at: j.created_at, id: j.job_id })));
		const first = await ok(jobSearchEnvelopeSchema, '/jobs');
		expect(first.data).toHaveLength(PAGE);
		expect(first.metrics.updated_at).toBe(Math.max(...expected.map((j) => j.updated_at)));
		const second = await searchAll({}, SECOND_TOKEN);
		expect(ids(second.jobs)).toEqual(ids(accountJobs('acc_second')));
		expect(second.jobs.length).toBeLessThan(expected.length);
	});

	it('after cycles still returns exactly the account\'s jobs, newest first (created, updated and deleted ones included)', async () => {
		// The same pages asked before the cycles: what the mock kept of them must not be given after.
		for (const token of [undefined, SECOND_TOKEN]) for (const query of [{}, { search: 'senior' }]) await ok(jobSearchEnvelopeSchema, searchPath(query), token);
		for (let i = 0; i < 3; i++) await mock.service.processCycle();
		for (const [accountId, token] of [['acc_demo', undefined], ['acc_second', SECOND_TOKEN]] as const) {
			const { jobs } = await searchAll({}, token);
			expect(jobs).toEqual(accountJobs(accountId));
			const senior = await searchAll({ search: 'senior' }, token);
			expect(senior.jobs).toEqual(accountJobs(accountId).filter((j) => has(j, 'senior')));
		}
	});

	it('an offset in the middle starts there; past the end gives empty data and still the metrics', async () => {
		const expected = accountJobs();
		const mid = await ok(jobSearchEnvelopeSchema, '/jobs?offset=150');
		expect(ids(mid.data)).toEqual(ids(expected.slice(150, 250)));
		const past = await ok(jobSearchEnvelopeSchema, `/jobs?offset=${expected.length}`);
		expect(past).toEqual({ data: [], metrics: { count_jobs: expected.length, updated_at: mid.metrics.updated_at } });
	});

	it('a plain term matches the full posting text, not only the title', async () => {
		const expected = accountJobs().filter((j) => has(j, 'terraform'));
		expect(expected.some((j) => !j.job_title.toLowerCase().includes('terraform'))).toBe(true);
		const { jobs, counts } = await searchAll({ search: 'Terraform' });
		expect(ids(jobs)).toEqual(ids(expected));
		expect(counts[0]).toBe(expected.length);
		const tag = await searchAll({ search: 'visa-sponsorship' });
		expect(ids(tag.jobs)).toEqual(ids(accountJobs().filter((j) => j.job_tags.includes('visa-sponsorship'))));
	});

	it('comma-separated entries are alternatives (OR)', async () => {
		const { jobs } = await searchAll({ search: 'terraform, figma' });
		expect(ids(jobs)).toEqual(ids(accountJobs().filter((j) => has(j, 'terraform') || has(j, 'figma'))));
	});

	it('+ joins terms that must all match; - excludes; terms without a prefix include', async () => {
		const all = accountJobs();
		const both = await searchAll({ search: '+python+kubernetes' });
		expect(ids(both.jobs)).toEqual(ids(all.filter((j) => has(j, 'python') && has(j, 'kubernetes'))));
		expect(both.jobs.length).toBeGreaterThan(0);
		const without = await searchAll({ search: 'python -senior' });
		expect(ids(without.jobs)).toEqual(ids(all.filter((j) => has(j, 'python') && !has(j, 'senior'))));
		const onlyExclusion = await searchAll({ search: '-remote' });
		expect(ids(onlyExclusion.jobs)).toEqual(ids(all.filter((j) => !has(j, 'remote'))));
		const entryExclusion = await searchAll({ search: 'python, -senior' });
		expect(ids(entryExclusion.jobs)).toEqual(ids(without.jobs));
	});

	it('| separates alternatives, each of which may be a +-joined group', async () => {
		const expected = accountJobs().filter((j) => (has(j, 'python') && has(j, 'aws')) || (has(j, 'rust') && !has(j, 'senior')));
		expect(expected.length).toBeGreaterThan(0);
		for (const search of ['python+aws|rust -senior', 'python+aws|rust+-senior']) {
			expect(ids((await searchAll({ search })).jobs)).toEqual(ids(expected));
		}
		// A `-` inside a word is part of the word, not an exclusion.
		const hyphen = await searchAll({ search: 'full-time' });
		expect(ids(hyphen.jobs)).toEqual(ids(accountJobs().filter((j) => has(j, 'full-time'))));
	});

	// 15 runs of several searches over the data: seconds of CPU, 36 s at a load of 25-33 (past vitest's 30 s).
	it('property: the syntax composes like sets (OR is union, + is intersection, - is difference)', { timeout: 300_000 }, async () => {
		const words = ['python', 'aws', 'rust', 'figma', 'senior', 'remote', 'berlin', 'engineer', 'sql', 'design'];
		const run = async (search: string) => new Set(ids((await searchAll({ search })).jobs));
		const union = (x: Set<string>, y: Set<string>) => new Set([...x, ...y]);
		const intersection = (x: Set<string>, y: Set<string>) => new Set([...x].filter((id) => y.has(id)));
		const difference = (x: Set<string>, y: Set<string>) => new Set([...x].filter((id) => !y.has(id)));
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...words), fc.constantFrom(...words), async (a, b) => {
				const [ra, rb] = [await run(a), await run(b)];
				expect(await run(`${a}, ${b}`)).toEqual(union(ra, rb));
				expect(await run(`${a}|${b}`)).toEqual(union(ra, rb));
				expect(await run(`+${a}+${b}`)).toEqual(intersection(ra, rb));
				expect(await run(`${a}, -${b}`)).toEqual(difference(ra, rb));
			}),
			{ numRuns: 15 },
		);
	});

	it('locations accepts cities, countries and regions, comma-separated as alternatives', async () => {
		const all = accountJobs();
		const berlin = await searchAll({ locations: 'Berlin' });
		expect(ids(berlin.jobs)).toEqual(ids(all.filter((j) => j.location.startsWith('Berlin,'))));
		const europe = await searchAll({ locations: 'europe' });
		expect(ids(europe.jobs)).toEqual(ids(all.filter((j) => j.region === 'Europe')));
		expect(europe.jobs.length).toBeGreaterThan(berlin.jobs.length);
		const two = await searchAll({ locations: 'Tokyo, Asia' });
		expect(ids(two.jobs)).toEqual(ids(all.filter((j) => j.region === 'Asia')));
		const combined = await searchAll({ locations: 'Europe', search: 'python' });
		expect(ids(combined.jobs)).toEqual(ids(all.filter((j) => j.region === 'Europe' && has(j, 'python'))));
	});

	it('categories is a repeated parameter (one category contains commas); jobs tagged with any of them match', async () => {
		const all = accountJobs();
		const ai = await searchAll({ categories: [AI] });
		expect(ai.jobs.length).toBeGreaterThan(0);
		expect(ids(ai.jobs)).toEqual(ids(all.filter((j) => (j.categories as string[]).includes(AI))));
		const two = await searchAll({ categories: [AI, 'DevOps'] });
		expect(ids(two.jobs)).toEqual(ids(all.filter((j) => (j.categories as string[]).some((c) => c === AI || c === 'DevOps'))));
		const withSearch = await searchAll({ categories: ['DevOps'], search: 'senior' });
		expect(ids(withSearch.jobs)).toEqual(ids(all.filter((j) => (j.categories as string[]).includes('DevOps') && has(j, 'senior'))));
	});

	it('job_tags and industry_tags are repeated parameters: any value of one filter (case-insensitive, exact), every filter', async () => {
		const all = accountJobs();
		const { store } = mock.service;
		const industriesOf = (j: Job) => store.sources.get(j.source_id)?.industry_tags ?? [];
		const remote = await searchAll({ job_tags: ['Remote'] });
		expect(remote.jobs.length).toBeGreaterThan(0);
		expect(ids(remote.jobs)).toEqual(ids(all.filter((j) => j.job_tags.includes('remote'))));
		expect(new Set(remote.counts)).toEqual(new Set([remote.jobs.length]));
		const either = await searchAll({ job_tags: ['remote', 'CONTRACT'] });
		expect(ids(either.jobs)).toEqual(ids(all.filter((j) => j.job_tags.includes('remote') || j.job_tags.includes('contract'))));
		// Exact: a part of a tag is not the tag.
		expect((await searchAll({ job_tags: ['remo'] })).jobs).toEqual([]);
		const fintech = await searchAll({ industry_tags: ['Fintech', 'energy'] });
		expect(fintech.jobs.length).toBeGreaterThan(0);
		expect(ids(fintech.jobs)).toEqual(ids(all.filter((j) => industriesOf(j).some((t) => t === 'fintech' || t === 'energy'))));
		const every = await searchAll({ industry_tags: ['fintech'], job_tags: ['remote'], categories: ['Sales', 'Engineering (Software)'], locations: 'Europe' });
		expect(ids(every.jobs)).toEqual(
			ids(all.filter((j) => industriesOf(j).includes('fintech') && j.job_tags.includes('remote') && ['Sales', 'Engineering (Software)'].some((c) => (j.categories as string[]).includes(c)) && j.region === 'Europe')),
		);
		expect(new Set(every.counts)).toEqual(new Set([every.jobs.length]));
	});

	it('a tag value with commas is one value; a tag no job or source has matches nothing (200, count 0); an empty tag is 400', async () => {
		for (const query of [{ job_tags: ['remote,contract'] }, { industry_tags: ['astrology'] }, { industry_tags: ['fintech,energy'] }]) {
			const body = await ok(jobSearchEnvelopeSchema, searchPath(query));
			expect(body.data).toEqual([]);
			expect(body.metrics.count_jobs).toBe(0);
		}
		expectApiError(await call(searchPath({ job_tags: [''] })), 400, /"job_tags"/);
		expectApiError(await call(searchPath({ industry_tags: ['fintech', ''] })), 400, /"industry_tags"/);
	});

	it('a search matching nothing answers empty data with count 0', async () => {
		const body = await ok(jobSearchEnvelopeSchema, searchPath({ search: 'zzz-no-such-term' }));
		expect(body.data).toEqual([]);
		expect(body.metrics.count_jobs).toBe(0);
	});

	it('answers 400 naming the parameter for a bad offset or an unknown category', async () => {
		for (const offset of ['-1', 'abc', '1.5', '', '1e3']) {
			expectApiError(await call(`/jobs?offset=${offset}`), 400, /"offset"/);
		}
		expectApiError(await call(searchPath({ categories: ['Astrology'] })), 400, /"categories"/);
		// The commas inside the AI category are not separators: its pieces are not categories.
		expectApiError(await call(searchPath({ categories: ['Artificial Intelligence'] })), 400, /"categories"/);
		expect(JOB_CATEGORIES).toContain(AI);
	});
});
