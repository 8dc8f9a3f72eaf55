// The search index answers exactly what a scan of every job with the exact check (`matches`) answers: random terms cut from real job texts (parts of words, several words, punctuation), in every syntax position, before and after cycles.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { JOB_CATEGORIES, readSearch } from '../src/base/contract.mts';
import { INDUSTRIES, JOB_TAGS } from '../src/data/vocabulary.mts';
import type { StoredJob } from '../src/data/model.mts';
import { matches } from '../src/search/expression.mts';
import { searchJobs, type JobSearch } from '../src/search/job-search.mts';
import { useMock } from './harness.mts';
import { Work } from '../src/base/work.mts';

const mock = useMock();

/** The test's own reading: each list filter keeps jobs with any of its values; tags compare lower-cased; industries are the source's. */
function scan(jobs: readonly StoredJob[], query: JobSearch): string[] {
	const search = readSearch(query.search ?? '');
	const locations = readSearch(query.locations ?? '');
	const anyOf = (values: readonly string[], wanted: readonly string[]) =>
		wanted.length === 0 || values.some((v) => wanted.some((w) => w.toLowerCase() === v.toLowerCase()));
	const industriesOf = (sourceId: string) => mock.service.store.sources.get(sourceId)?.industry_tags ?? [];
	return jobs
		.filter(
			(j) =>
				anyOf(j.job.categories, query.categories) &&
				anyOf(j.job.job_tags, query.job_tags) &&
				anyOf(industriesOf(j.job.source_id), query.industry_tags) &&
				matches(locations, j.places) &&
				matches(search, j.text),
		)
		.map((j) => j.job.job_id);
}

/** Tag values as a client might send them: in any letter case, sometimes one no job has. */
const tags = (known: readonly string[]) =>
	fc.subarray([...known, 'no-such-tag'], { maxLength: 2 }).chain((values) =>
		fc.tuple(...values.map((v) => fc.boolean().map((upper) => (upper ? v.toUpperCase() : v)))),
	);
const NO_TAGS = { job_tags: [], industry_tags: [] };

async function indexed(accountId: string, query: JobSearch): Promise<string[]> {
	const { store } = mock.service;
	const found = await searchJobs(store.searchScopeOf(accountId), query, new Work(async () => undefined));
	return found.map((j) => j.job.job_id);
}

/** A piece of a real job's text or places: a part of a word, a word, or a few words with what separates them. */
const piece = (field: 'text' | 'places') =>
	fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 14 })).map(([which, start, length]) => {
		const jobs = mock.service.store.jobsOf('acc_demo');
		const text = jobs[which % jobs.length][field];
		const from = start % text.length;
		return text.slice(from, from + length).replace(/[,|+\n]/g, ' ').trim();
	});
const expression = (field: 'text' | 'places') =>
	fc.array(fc.tuple(fc.constantFrom('', '-', '+', '|'), piece(field)), { minLength: 1, maxLength: 4 }).map((parts) =>
		parts.map(([op, term], i) => (op === '' || op === '-' ? `${i === 0 ? '' : ','}${op}${term}` : `${op}${term}`)).join(''),
	);

describe('job search index', () => {
	it('property: the same jobs, in the same order, as scanning every job with the exact check', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.option(expression('text'), { nil: undefined }),
				fc.option(expression('places'), { nil: undefined }),
				fc.subarray([...JOB_CATEGORIES], { maxLength: 2 }),
				tags(JOB_TAGS),
				tags(INDUSTRIES),
				fc.constantFrom('acc_demo', 'acc_second'),
				fc.integer({ min: 0, max: 2 }),
				async (search, locations, categories, job_tags, industry_tags, accountId, cycles) => {
					for (let i = 0; i < cycles; i++) await mock.service.processCycle();
					const query = { search, locations, categories, job_tags, industry_tags };
					expect(await indexed(accountId, query)).toEqual(scan(mock.service.store.jobsOf(accountId), query));
				},
			),
			{ numRuns: 300 },
		);
	});

	it('follows updates: a title changed by a cycle is found by its new words, and a deleted job is gone', async () => {
		const events = await mock.service.processCycle();
		const updated = events.filter((e) => e.event_type === 'job_updated').map((e) => (e.event_data as { job_id: string }).job_id);
		const deleted = events.filter((e) => e.event_type === 'job_deleted').map((e) => (e.event_data as { job_id: string }).job_id);
		expect(updated.length).toBeGreaterThan(0);
		const found = await indexed('acc_demo', { search: 'updated', categories: [], ...NO_TAGS });
		for (const id of updated) expect(found).toContain(id);
		expect(found).toEqual(scan(mock.service.store.jobsOf('acc_demo'), { search: 'updated', categories: [], ...NO_TAGS }));
		const all = await indexed('acc_demo', { search: 'e|a|o|i|u', categories: [], ...NO_TAGS });
		for (const id of deleted) expect(all).not.toContain(id);
	});

	it('a rebuild of the index in turns (after many deletes) answers as a scan does, and pauses between shares', async () => {
		const { store } = mock.service;
		const pauses: number[] = [];
		let steps = 0;
		const spend = Work.prototype.spend;
		vi.spyOn(Work.prototype, 'spend').mockImplementation(function (this: Work, n: number) {
			steps += n;
			const pause = spend.call(this, n);
			if (pause) pauses.push(steps);
			return pause;
		});
		// Deletes past a quarter of the live jobs make the cycle rebuild the index: then it holds only the live ones.
		const deleted = Math.ceil(store.index.live / 4) + 1;
		await mock.service.processCycle({ created: 0, updated: 0, deleted, signals: 0, domain_changes: 0 });
		vi.restoreAllMocks();
		expect(store.index.size).toBe(store.index.live);
		expect(store.index.live).toBe(store.jobs.size);
		// Two passes over every job at least, in more than one turn.
		expect(pauses.length).toBeGreaterThan(1);
		for (const search of ['e', 'engineer,-senior', 'data|python', '']) {
			const query = { search, categories: [], ...NO_TAGS };
			expect(await indexed('acc_demo', query)).toEqual(scan(store.jobsOf('acc_demo'), query));
		}
	});
});
