// The high-volume account: no job board (no category or industry filters: empty in Get Filters, 400 in job search), its own region filter applied to every job answer, many sources.
import { describe, expect, it } from 'vitest';
import {
	LIMITS, collectionsEnvelopeSchema, filtersSchema, jobSchema, jobsEnvelopeSchema, jobSearchEnvelopeSchema, type Job,
} from '../src/base/contract.mts';
import { VOLUME_ACCOUNT_TOKEN } from '../src/data/generate.mts';
import { call, expectApiError, ok, useMock, VOLUME_TOKEN } from './harness.mts';

const mock = useMock();
const REGIONS = ['Europe', 'North America'];

/** The test's own reading: jobs of a tracked source in one of the account's regions, newest first. */
function visibleJobs(): Job[] {
	const { store } = mock.service;
	return [...store.jobs.values()]
		.map((j) => j.job)
		.filter((j) => store.tracks('acc_volume', j.source_id) && REGIONS.includes(j.region))
		.sort((a, b) => b.created_at - a.created_at || (a.job_id < b.job_id ? 1 : -1));
}

async function searchAll(query: string): Promise<{ jobs: Job[]; count: number }> {
	const jobs: Job[] = [];
	for (let offset = 0; ; offset += LIMITS.jobSearchPageSize) {
		const page = await ok(jobSearchEnvelopeSchema, `/jobs?${query}${query === '' ? '' : '&'}offset=${offset}`, VOLUME_TOKEN);
		jobs.push(...page.data);
		if (page.data.length < LIMITS.jobSearchPageSize) return { jobs, count: page.metrics.count_jobs };
	}
}

describe('the high-volume account (no job board)', () => {
	it('has a fixed token, exported like the second account\'s, and tracks nine sources in ten', async () => {
		expect(VOLUME_ACCOUNT_TOKEN).toBe(VOLUME_TOKEN);
		const { data } = await ok(collectionsEnvelopeSchema, '/collections', VOLUME_TOKEN);
		const { store } = mock.service;
		expect(data.reduce((sum, c) => sum + c.count_sources, 0)).toBe(store.sources.size - Math.floor(store.sources.size / 10));
	});

	it('Get Filters lists no categories and no industry tags, and only the locations of its regions', async () => {
		const body = await ok(filtersSchema, '/jobs/filters', VOLUME_TOKEN);
		expect(body.categories).toEqual([]);
		expect(body.industry_tags).toEqual([]);
		expect(body.job_tags).toEqual(['remote', 'onsite']);
		expect(new Set(body.locations)).toEqual(new Set(visibleJobs().flatMap((j) => [j.location, j.region])));
		expect(body.locations).not.toContain('Asia');
	});

	it('job search with categories or industry_tags is 400 naming the parameter; job_tags, search and locations work', async () => {
		expectApiError(await call('/jobs?categories=Sales', { token: VOLUME_TOKEN }), 400, /"categories".*unavailable/);
		expectApiError(await call('/jobs?industry_tags=fintech', { token: VOLUME_TOKEN }), 400, /"industry_tags".*unavailable/);
		const remote = await searchAll('job_tags=remote&locations=Europe');
		const expected = visibleJobs().filter((j) => j.job_tags.includes('remote') && j.region === 'Europe');
		expect(remote.jobs.map((j) => j.job_id)).toEqual(expected.map((j) => j.job_id));
		expect(remote.count).toBe(expected.length);
	});

	it('sees only jobs in its regions: job search and its count, jobs of a source, job by id', async () => {
		const all = await searchAll('');
		const expected = visibleJobs();
		expect(all.jobs.map((j) => j.job_id)).toEqual(expected.map((j) => j.job_id));
		expect(all.count).toBe(expected.length);
		const { store } = mock.service;
		const outside = [...store.jobs.values()].map((j) => j.job).find((j) => store.tracks('acc_volume', j.source_id) && !REGIONS.includes(j.region));
		if (!outside) throw new Error('the seed should give the account a tracked source with a job outside its regions');
		expectApiError(await call(`/jobs/${outside.job_id}`, { token: VOLUME_TOKEN }), 404);
		expect((await ok(jobSchema, `/jobs/${outside.job_id}`)).job_id).toBe(outside.job_id);
		const ofSource = await ok(jobsEnvelopeSchema, `/sources/id/${outside.source_id}/jobs`, VOLUME_TOKEN);
		const sourceJobs = expected.filter((j) => j.source_id === outside.source_id);
		expect(ofSource.metrics.count_jobs).toBe(sourceJobs.length);
		expect(ofSource.data.map((j) => j.job_id)).toEqual(sourceJobs.slice(0, LIMITS.cursorPageSize).map((j) => j.job_id));
	});
});
