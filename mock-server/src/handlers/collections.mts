/** The account's collections and the sources of one collection (cursor pages by source_id). */
import { HttpResponse, type HttpHandler } from 'msw';
import { CURSOR_PARAMS, LIMITS, type Source, sourcesOfCollectionQuerySchema } from '../base/contract.mts';
import { cursorPage, decodeCursor } from '../http/cursor.mts';
import { parseQuery } from '../http/query.mts';
import { apiError } from '../http/respond.mts';
import { apiRoute, type HandlerContext } from '../http/route.mts';

export function collectionHandlers(context: HandlerContext): HttpHandler[] {
	const { store } = context;
	return [
		apiRoute(context, 'collections', ({ account }) =>
			HttpResponse.json({
				data: store.collectionsOf(account.account_id).map(({ collection_id, name, description, count_sources, created_at }) => ({
					collection_id, name, description, count_sources, created_at,
				})),
			}),
		),
		apiRoute(context, 'sourcesOfCollection', ({ url, params, account }) => {
			const collection = store.collectionsOf(account.account_id).find((c) => c.collection_id === params.collection_id);
			if (!collection) return apiError(404, `No collection with id "${params.collection_id}"`);
			const query = parseQuery(sourcesOfCollectionQuerySchema, url);
			if (query instanceof Response) return query;
			const ids = [...collection.source_ids].sort();
			const raw = query[CURSOR_PARAMS.sources];
			const after = raw === undefined ? undefined : decodeCursor(raw, /^[A-Za-z0-9_-]+$/);
			if (raw !== undefined && after === undefined) return apiError(400, `Invalid query parameter "${CURSOR_PARAMS.sources}": malformed cursor`);
			const { page, next } = cursorPage(ids, LIMITS.cursorPageSize, (id) => id, after === undefined ? undefined : (id) => id > after);
			const body: { data: Source[]; cursor_source_id?: string; metrics: { count_sources: number } } = {
				data: page.flatMap((id) => store.sources.get(id) ?? []),
				metrics: { count_sources: ids.length },
			};
			if (next !== undefined) body.cursor_source_id = next;
			return HttpResponse.json(body);
		}),
	];
}
