/** The jobs endpoints: GET /jobs (search, by offset), GET /sources/…/jobs (a company's jobs, by cursor), GET /jobs/{job_id}. */
import type { IDataObject } from 'n8n-workflow';
import { API_PATHS, fillPath } from '../contract';
import { jobsCursorList, offsetList } from '../pages/list-kinds';
import type { PagedEndpoint } from '../pages/page-walk';
import type { AnswerTypes } from '../transport/answers';
import { serviceRequest, type ServiceContext } from '../transport/request';

/** The account's jobs matching `filters` (searchQuery, job-search.ts), from `startOffset`. */
export function jobSearch(operation: string, filters: IDataObject, startOffset = 0): PagedEndpoint<'jobSearchPage'> {
	return { request: { method: 'GET', on: 'api', path: API_PATHS.jobSearch, idempotent: true, operation }, list: offsetList(filters, startOffset) };
}

/** A company's jobs, newest first; `path` from sourcePath (source-locator.ts). */
export function jobsOfSource(operation: string, path: string, startCursor?: string): PagedEndpoint<'jobsPage'> {
	return { request: { method: 'GET', on: 'api', path, idempotent: true, operation }, list: jobsCursorList(startCursor) };
}

export async function jobById(context: ServiceContext, operation: string, jobId: string): Promise<AnswerTypes['job']> {
	return await serviceRequest(context, { method: 'GET', on: 'api', path: fillPath(API_PATHS.jobById, { job_id: jobId }), idempotent: true, answer: 'job', operation });
}
