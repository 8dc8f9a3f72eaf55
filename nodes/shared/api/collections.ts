/** GET /collections: the account's activated collections (one call; the list is not paginated). */
import type { IDataObject } from 'n8n-workflow';
import { API_PATHS } from '../contract';
import { serviceRequest, type ServiceContext } from '../transport/request';

/** The one request of Collection → Get Many and of the Collection picker. */
export async function accountCollections(context: ServiceContext, operation: string): Promise<IDataObject[]> {
	const body = await serviceRequest.call(context, { method: 'GET', on: 'api', path: API_PATHS.collections, idempotent: true, answer: 'collections', operation });
	return body.data as IDataObject[];
}
