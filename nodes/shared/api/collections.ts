/** GET /collections: the account's activated collections (one call; the list is not paginated). */
import { API_PATHS } from '../contract';
import type { AnswerTypes } from '../transport/answers';
import { serviceRequest, type ServiceContext } from '../transport/request';

/** The one request of Collection → Get Many and of the Collection picker. */
export async function accountCollections(context: ServiceContext, operation: string): Promise<AnswerTypes['collections']['data']> {
	const body = await serviceRequest(context, { method: 'GET', on: 'api', path: API_PATHS.collections, idempotent: true, answer: 'collections', operation });
	return body.data;
}
