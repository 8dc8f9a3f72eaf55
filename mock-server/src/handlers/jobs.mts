/** Jobs: of a source (by domain or id, cursor pages), search (offset pages), filters, by id. */
import { HttpResponse, type HttpHandler } from 'msw';
import { CHOICES, CURSOR_PARAMS, jobSearchQuerySchema, jobsOfSourceQuerySchema, LIMITS } from '../base/contract.mts';
import type { Account, StoredJob } from '../data/model.mts';
import { cursorPage, decodeCursor } from '../http/cursor.mts';
import { parseQuery, PLUS_IN_SEARCH_WARNING, sentWithPlus } from '../http/query.mts';
import { KeptBody } from '../http/kept-body.mts';
import { apiError, jsonBytes } from '../http/respond.mts';
import { apiRoute, type ApiCall, type HandlerContext } from '../http/route.mts';
import { RecentResults } from '../data/recent-results.mts';
import { searchJobs, searchLimitProblem } from '../search/job-search.mts';
import { accountFilters } from './filters.mts';
import { jobsEnvelope, jobsEnvelopeChunks, jobsMetrics, type JobsMetrics } from './jobs-body.mts';
import { recordBytes } from './record-json.mts';
import { trackedSource } from './sources.mts';

const JOB_CURSOR_SHAPE = /^\d+:[A-Za-z0-9_-]+$/;
/** Job search's list parameters: repeated, as their values may contain commas (CHOICES). */
const REPEATED_SEARCH_PARAMS = ['categories', CHOICES.jobSearchTagParams.jobTags, CHOICES.jobSearchTagParams.industryTags];

/** The first filter the account's plan does not offer that the search uses. */
function unavailableFilter(account: Account, query: { categories: readonly string[]; industry_tags: readonly string[] }): string | undefined {
	if (account.job_board) return undefined;
	if (query.categories.length > 0) return 'categories';
	if (query.industry_tags.length > 0) return CHOICES.jobSearchTagParams.industryTags;
	return undefined;
}

export function jobHandlers(context: HandlerContext): HttpHandler[] {
	const { store } = context;
	// A client pages through one search offset by offset: scanning 100,000 jobs once per search, not once per page.
	// The promise is kept, so the same search asked again while it runs waits for that one scan.
	const recentSearches = new RecentResults<Promise<{ matching: readonly StoredJob[]; metrics: JobsMetrics }>>(32);
	// And its pages as sent (lists of the records' cached bytes): building and encoding a 100-job page allocated ~150 KB per request, which fed V8's collector.
	const recentPages = new RecentResults<KeptBody>(32);

	const jobsOfSource = async (call: ApiCall, sourceId: string | undefined) => {
		const source = trackedSource(context, call, sourceId);
		if (source instanceof Response) return source;
		const query = parseQuery(jobsOfSourceQuerySchema, call.url);
		if (query instanceof Response) return query;
		const jobs = store.jobsOfSourceFor(call.account.account_id, source.source_id);
		let startAfter: ((j: StoredJob) => boolean) | undefined;
		const raw = query[CURSOR_PARAMS.jobs];
		if (raw !== undefined) {
			const key = decodeCursor(raw, JOB_CURSOR_SHAPE);
			if (key === undefined) return apiError(400, `Invalid query parameter "${CURSOR_PARAMS.jobs}": malformed cursor`);
			const [created, id] = [Number(key.slice(0, key.indexOf(':'))), key.slice(key.indexOf(':') + 1)];
			startAfter = (j) => j.job.created_at < created || (j.job.created_at === created && j.job.job_id < id);
		}
		const { page, next } = cursorPage(jobs, LIMITS.cursorPageSize, (j) => `${j.job.created_at}:${j.job.job_id}`, startAfter);
		return jobsEnvelope(page, await jobsMetrics(jobs), next);
	};

	return [
		apiRoute(context, 'jobsOfSourceById', (call) => jobsOfSource(call, call.params.source_id)),
		apiRoute(context, 'jobsOfSourceByDomain', (call) =>
			jobsOfSource(call, store.sourcesByDomain.get(call.params.url_source)?.source_id),
		),
		// Registered before jobById so that "filters" is never read as a job id.
		apiRoute(context, 'jobFilters', async ({ account }) => HttpResponse.json(await accountFilters(context, account))),
		apiRoute(context, 'jobSearch', async ({ url, account, warnings }) => {
			const query = parseQuery(jobSearchQuerySchema, url, REPEATED_SEARCH_PARAMS);
			if (query instanceof Response) return query;
			const unavailable = unavailableFilter(account, query);
			if (unavailable !== undefined) {
				return apiError(CHOICES.unavailableFilterStatus, `Invalid query parameter "${unavailable}": category and industry filters are unavailable for this account (no job board attached; Get Filters lists none)`);
			}
			const tooLarge = searchLimitProblem(query);
			if (tooLarge !== undefined) return apiError(400, tooLarge);
			const key = JSON.stringify([account.account_id, query.search, query.locations, query.categories, query.job_tags, query.industry_tags]);
			// The account's jobs as of now: a cycle that runs between slices changes the store, not this list.
			const version = store.version;
			const { matching, metrics } = await recentSearches.get(key, version, async () => {
				const found = await searchJobs(store.searchScopeOf(account.account_id), query);
				return { matching: found, metrics: await jobsMetrics(found) };
			});
			// "c++" sent unescaped searched "c  ": say why nothing matched.
			if (matching.length === 0 && sentWithPlus(url, 'search')) warnings.push(PLUS_IN_SEARCH_WARNING);
			return recentPages.get(JSON.stringify([key, query.offset]), version, () =>
				new KeptBody(jobsEnvelopeChunks(matching.slice(query.offset, query.offset + LIMITS.jobSearchPageSize), metrics))).response();
		}),
		apiRoute(context, 'jobById', ({ params, account }) => {
			const job = store.jobById(params.job_id);
			if (!job || !store.sees(account.account_id, job)) return apiError(404, `No job with id "${params.job_id}"`);
			return jsonBytes(recordBytes(job));
		}),
	];
}
