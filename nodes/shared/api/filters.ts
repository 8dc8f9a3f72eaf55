/** GET /jobs/filters: the filter options the account can search with (locations, job tags, industry tags, categories). */
import { API_PATHS } from '../contract';
import type { AnswerTypes } from '../transport/answers';
import { serviceRequest, type ServiceContext } from '../transport/request';

/** The one request of Job → Get Filters and of the Job Tags / Industry Tags lists. */
export async function accountFilters(context: ServiceContext, operation: string): Promise<AnswerTypes['filters']> {
	return await serviceRequest(context, { method: 'GET', on: 'api', path: API_PATHS.jobFilters, idempotent: true, answer: 'filters', operation });
}
