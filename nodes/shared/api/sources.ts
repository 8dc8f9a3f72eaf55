/** The sources endpoints: GET /sources/… (one company, by domain or id) and GET /collections/{id}/sources (by cursor). */
import { API_PATHS, fillPath } from '../contract';
import { sourcesCursorList } from '../pages/list-kinds';
import type { PagedEndpoint } from '../pages/page-walk';
import type { AnswerTypes } from '../transport/answers';
import { serviceRequest, type ServiceContext } from '../transport/request';

/** One company; `path` from sourcePath (source-locator.ts). */
export async function sourceAt(context: ServiceContext, operation: string, path: string): Promise<AnswerTypes['source']> {
	return await serviceRequest(context, { method: 'GET', on: 'api', path, idempotent: true, answer: 'source', operation });
}

export function sourcesOfCollection(operation: string, collectionId: string, startCursor?: string): PagedEndpoint<'sourcesPage'> {
	const path = fillPath(API_PATHS.sourcesOfCollection, { collection_id: collectionId });
	return { request: { method: 'GET', on: 'api', path, idempotent: true, operation }, list: sourcesCursorList(startCursor) };
}
