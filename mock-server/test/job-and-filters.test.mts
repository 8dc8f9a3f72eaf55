// Job by id and the account's query filters.
import { describe, expect, it } from 'vitest';
import { JOB_CATEGORIES, filtersSchema, jobSchema } from '../src/base/contract.mts';
import { call, expectApiError, ok, SECOND_TOKEN, useMock } from './harness.mts';

const mock = useMock();

function sourceTrackedOnlyByDemo() {
	const { store } = mock.service;
	const source = [...store.sources.values()].find((s) => !store.tracks('acc_second', s.source_id) && store.tracks('acc_demo', s.source_id));
	if (!source) throw new Error('the seed should give the demo account sources the second one does not track');
	return source;
}

describe('job by id', () => {
	it('returns the job with every contract field', async () => {
		const { store } = mock.service;
		const stored = [...store.jobs.values()][17].job;
		const body = await ok(jobSchema, `/jobs/${stored.job_id}`);
		expect(body).toEqual(stored);
	});

	it('answers 404 for an unknown id and for a job of a source the account does not track', async () => {
		expectApiError(await call('/jobs/job_9999999'), 404, /job_9999999/);
		expectApiError(await call('/jobs/%20'), 404);
		const { store } = mock.service;
		const hidden = [...store.jobs.values()].find((j) => j.job.source_id === sourceTrackedOnlyByDemo().source_id);
		if (!hidden) throw new Error('that source should have a job');
		expectApiError(await call(`/jobs/${hidden.job.job_id}`, { token: SECOND_TOKEN }), 404);
		await ok(jobSchema, `/jobs/${hidden.job.job_id}`);
	});
});

describe('filters', () => {
	it('lists the locations (cities and regions), job tags, industry tags and categories of the jobs the account sees (none of the last two without a job board)', async () => {
		const { store } = mock.service;
		const accounts = store.accountList();
		for (const account of accounts) {
			const body = await ok(filtersSchema, '/jobs/filters', account.token);
			const { regions } = account.filters;
			const jobs = [...store.jobs.values()].map((j) => j.job).filter((j) => store.tracks(account.account_id, j.source_id) && (regions.length === 0 || regions.includes(j.region)));
			expect(new Set(body.locations)).toEqual(new Set(jobs.flatMap((j) => [j.location, j.region])));
			expect(body.locations).toEqual([...body.locations].sort());
			expect(body.job_tags).toEqual(account.job_tags);
			const industries = new Set(jobs.flatMap((j) => store.sources.get(j.source_id)?.industry_tags ?? []));
			expect(new Set(body.industry_tags)).toEqual(account.job_board ? industries : new Set());
			const used = new Set<string>(jobs.flatMap((j) => j.categories));
			expect(body.categories).toEqual(account.job_board ? JOB_CATEGORIES.filter((c) => used.has(c)) : []);
		}
		expect(accounts.filter((a) => !a.job_board && a.filters.regions.length > 0)).toHaveLength(1);
		const [demo, second] = await Promise.all(accounts.map((a) => ok(filtersSchema, '/jobs/filters', a.token)));
		expect(demo.job_tags).not.toEqual(second.job_tags);
	});

	it('follows the data: once no job is in a place, the place is no longer offered', async () => {
		const before = await ok(filtersSchema, '/jobs/filters');
		expect(before.locations).toContain('Sydney, Australia');
		expect(before.locations).toContain('Oceania');
		const { store } = mock.service;
		for (const { job } of [...store.jobs.values()]) if (job.region === 'Oceania') store.removeJob(job.job_id);
		const after = await ok(filtersSchema, '/jobs/filters');
		expect(after.locations).not.toContain('Sydney, Australia');
		expect(after.locations).not.toContain('Oceania');
		expect(after.locations.length).toBe(before.locations.length - 2);
	});
});
