// Job → Search's Job Tags and Industry Tags through n8n-core's engine against the in-process mock: the lists from the
// account's Get Filters answer, the filters as repeated parameters, and the high-volume account that has no industry or
// job function filter.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { VOLUME_ACCOUNT_TOKEN } from 'job-signals-mock-server';
import { MOCK_API_URL, SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { loadOptions } from '../../harness/in-process/load-options.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { allSearched, api, NODE_TYPE } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });
const volume = () => ({ ...mock.credentials, apiToken: VOLUME_ACCOUNT_TOKEN });

const search = (parameters: Record<string, unknown>, credentials = mock.credentials, onError?: 'continueRegularOutput') =>
	runNode({
		type: NODE_TYPE,
		parameters: { resource: 'job', operation: 'search', output: 'raw', returnAll: true, ...parameters },
		credentials: { jobSignalsApi: credentials },
		onError,
	});

const options = (method: string, credentials = mock.credentials) =>
	loadOptions({ type: NODE_TYPE, parameters: { resource: 'job', operation: 'search' }, credentials: { jobSignalsApi: credentials }, method });

const sorted = (values: string[]) => [...values].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || a.localeCompare(b));
/** The query of the node's job search calls, from `from` on. */
const searchQueries = (from = 0) =>
	mock
		.requests()
		.slice(from)
		.map((request) => new URL(request.url))
		.filter((url) => url.pathname.endsWith('/v2/jobs'))
		.map((url) => url.searchParams);

describe('Job → Search: Job Tags and Industry Tags', () => {
	it('the lists are the account\'s Get Filters answer, sorted by name', async () => {
		const filters = await api('/jobs/filters');
		const jobTags = await options('getJobTags');
		const industryTags = await options('getIndustryTags');
		expect((filters.industry_tags as string[]).length).toBeGreaterThan(3);
		expect(jobTags).toEqual(sorted(filters.job_tags as string[]).map((tag) => ({ name: tag, value: tag })));
		expect(industryTags).toEqual(sorted(filters.industry_tags as string[]).map((tag) => ({ name: tag, value: tag })));
		// The high-volume account has job tags but no industry filter.
		const volumeFilters = await api('/jobs/filters', {}, VOLUME_ACCOUNT_TOKEN);
		expect(await options('getJobTags', volume())).toEqual(sorted(volumeFilters.job_tags as string[]).map((tag) => ({ name: tag, value: tag })));
		expect(await options('getIndustryTags', volume())).toEqual([]);
	});

	it('each filter is OR within, AND across, and the results equal the service\'s own filtered search', async () => {
		const { job_tags: jobTags, industry_tags: industryTags } = (await api('/jobs/filters')) as { job_tags: string[]; industry_tags: string[] };
		const cases = [
			{ jobTags: [jobTags[0]], industryTags: [] },
			{ jobTags: [], industryTags: industryTags.slice(0, 2) },
			{ jobTags: jobTags.slice(0, 2), industryTags: [industryTags[0]] },
		];
		for (const chosen of cases) {
			const expected = await allSearched({ job_tags: chosen.jobTags, industry_tags: chosen.industryTags, search: 'engineer' });
			const run = await search({ search: 'engineer', ...chosen });
			expect(run.error).toBeUndefined();
			expect(expected.length).toBeGreaterThan(0);
			expect(run.items.map((item) => item.json)).toEqual(expected);
		}
		// The service's own answers behave as filters should: two values of one filter find more than one (OR), two filters fewer (AND).
		const one = await allSearched({ industry_tags: [industryTags[0]] });
		expect((await allSearched({ industry_tags: industryTags.slice(0, 2) })).length).toBeGreaterThan(one.length);
		expect((await allSearched({ industry_tags: [industryTags[0]], job_tags: [jobTags[0]] })).length).toBeLessThan(one.length);
	});

	it('a tag with commas is one repeated parameter; an expression may give a list or one tag', async () => {
		const { industry_tags: industryTags } = (await api('/jobs/filters')) as { industry_tags: string[] };
		let from = mock.requests().length;
		const list = await search({ jobTags: '={{ ["remote", "full-time, senior"] }}', industryTags: `={{ ${JSON.stringify(industryTags.slice(0, 2))} }}` });
		expect(list.error).toBeUndefined();
		const [query] = searchQueries(from);
		expect(query.getAll('job_tags')).toEqual(['remote', 'full-time, senior']);
		expect(query.getAll('industry_tags')).toEqual(industryTags.slice(0, 2));
		expect(list.items.map((item) => item.json)).toEqual(await allSearched({ job_tags: ['remote', 'full-time, senior'], industry_tags: industryTags.slice(0, 2) }));
		from = mock.requests().length;
		const one = await search({ industryTags: `={{ "${industryTags[0]}" }}` });
		expect(one.error).toBeUndefined();
		expect(searchQueries(from)[0].getAll('industry_tags')).toEqual([industryTags[0]]);
		const wrong = await search({ jobTags: '={{ 42 }}' });
		expect(wrong.error?.message).toBe('Job Tags must be a list of tags, got 42');
	});

	it('on the high-volume account, Industry Tags and Job Functions end in an error that says what to remove; Job Tags work', async () => {
		const industry = await search({ industryTags: ['software'] }, volume());
		expect(industry.error?.message).toBe('This account\'s plan has no industry filter — remove Industry Tags');
		expect(industry.error?.description).toMatch(/^The service answered: Invalid query parameter "industry_tags".*Job → Get Filters lists what this account can filter by\.$/);
		expect((industry.error as { httpCode?: string }).httpCode).toBe('400');
		const categories = await search({ categories: ['Engineering (Software)'] }, volume());
		expect(categories.error?.message).toBe('This account\'s plan has no job function (category) filter — remove Job Functions');
		const cont = await search({ industryTags: ['software'] }, volume(), 'continueRegularOutput');
		expect(cont.items).toHaveLength(1);
		expect(cont.items[0].json.error).toBe('This account\'s plan has no industry filter — remove Industry Tags');
		expect(cont.items[0].pairedItem).toEqual({ item: 0 });
		const tags = await search({ jobTags: ['remote'] }, volume());
		expect(tags.error).toBeUndefined();
		expect(tags.items.map((item) => item.json)).toEqual(await allSearched({ job_tags: ['remote'] }, VOLUME_ACCOUNT_TOKEN));
	});

	it('a job function outside the list (by expression) keeps the service\'s error about the value, not the plan error', async () => {
		const run = await search({ categories: '={{ ["Engineering"] }}' });
		expect(run.error?.message).toMatch(/^The service answered 400: Invalid query parameter "categories"/);
		expect(run.error?.message).not.toMatch(/plan/);
		expect(run.error?.description).not.toMatch(/plan/);
	});

	it('a 400 that names no parameter after such a filter keeps the service\'s message and says what to remove; a refused token stays a token error', async () => {
		const handlers = mock.service.handlers;
		const refuse = http.get(`${MOCK_API_URL}/jobs`, () => HttpResponse.json({ message: 'Filter not allowed on this plan' }, { status: 400 }));
		handlers.unshift(refuse);
		try {
			const run = await search({ industryTags: ['software'], categories: ['Engineering (Software)'] });
			expect(run.error?.message).toBe('The service answered 400: Filter not allowed on this plan');
			expect(run.error?.description).toBe(
				'Filter not allowed on this plan. If this account is on a high-volume plan without an attached job board, it has no job function (category) or industry filter: remove Job Functions and Industry Tags.',
			);
			// Job Tags alone are not a plan's filter: the service's error as it came.
			const tagsOnly = await search({ jobTags: ['remote'] });
			expect(tagsOnly.error?.message).toBe('The service answered 400: Filter not allowed on this plan');
			expect(tagsOnly.error?.description).toBe('Filter not allowed on this plan');
		} finally {
			handlers.splice(handlers.indexOf(refuse), 1);
		}
		const wrongToken = await search({ industryTags: ['software'] }, { ...mock.credentials, apiToken: 'wrong-token-123' });
		expect(wrongToken.error?.message).toBe('The service rejected the API token');
		expect(wrongToken.error?.description).toMatch(/Check the API Token in the Job Signals API credential\.$/);
	});
});
