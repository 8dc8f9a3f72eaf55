// The search index answers exactly what a scan of every job with the exact check (`matches`) answers: random terms cut from real job texts (parts of words, several words, punctuation), in every syntax position, before and after processing cycles.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOB_CATEGORIES } from '../../mock-server/src/contract/job-categories';
import type { StoredJob } from '../../mock-server/src/data/model';
import { matches, parseExpression } from '../../mock-server/src/search/expression';
import { searchJobs, type JobSearch } from '../../mock-server/src/search/job-search';
import { useMock } from './harness';

const mock = useMock();

function scan(jobs: readonly StoredJob[], query: JobSearch): string[] {
	const search = parseExpression(query.search ?? '');
	const locations = parseExpression(query.locations ?? '');
	return jobs
		.filter((j) => (query.categories.length === 0 || j.job.categories.some((c) => query.categories.includes(c))) && matches(locations, j.places) && matches(search, j.text))
		.map((j) => j.job.job_id);
}

async function indexed(accountId: string, query: JobSearch): Promise<string[]> {
	const { store } = mock.service;
	const found = await searchJobs({ jobs: store.jobsOf(accountId), serials: store.jobSerialsOf(accountId), index: store.index }, query, async () => undefined);
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
				fc.constantFrom('acc_demo', 'acc_second'),
				fc.integer({ min: 0, max: 2 }),
				async (search, locations, categories, accountId, cycles) => {
					for (let i = 0; i < cycles; i++) mock.service.processCycle();
					const query = { search, locations, categories };
					expect(await indexed(accountId, query)).toEqual(scan(mock.service.store.jobsOf(accountId), query));
				},
			),
			{ numRuns: 300 },
		);
	});

	it('follows updates: a title changed by a cycle is found by its new words, and a deleted job is gone', async () => {
		const events = mock.service.processCycle();
		const updated = events.filter((e) => e.event_type === 'job_updated').map((e) => (e.event_data as { job_id: string }).job_id);
		const deleted = events.filter((e) => e.event_type === 'job_deleted').map((e) => (e.event_data as { job_id: string }).job_id);
		expect(updated.length).toBeGreaterThan(0);
		const found = await indexed('acc_demo', { search: 'updated', categories: [] });
		for (const id of updated) expect(found).toContain(id);
		expect(found).toEqual(scan(mock.service.store.jobsOf('acc_demo'), { search: 'updated', categories: [] }));
		const all = await indexed('acc_demo', { search: 'e|a|o|i|u', categories: [] });
		for (const id of deleted) expect(all).not.toContain(id);
	});
});
