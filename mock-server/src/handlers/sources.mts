/**
 * Sources by domain and by id; a source the account does not track is answered as unknown (404).
 * A domain the source moved away from is 404 naming its new domain (CHOICES.movedDomainStatus).
 */
import { HttpResponse, type HttpHandler } from 'msw';
import { CHOICES, type Source } from '../base/contract.mts';
import { apiError } from '../http/respond.mts';
import { apiRoute, type ApiCall, type HandlerContext } from '../http/route.mts';

export function trackedSource({ store }: HandlerContext, call: ApiCall, sourceId: string | undefined): Source | Response {
	const source = sourceId === undefined ? undefined : store.sources.get(sourceId);
	if (!source || !store.tracks(call.account.account_id, source.source_id)) {
		const domain = call.params.url_source;
		const moved = domain === undefined || source ? undefined : store.movedFrom(domain);
		if (moved && store.tracks(call.account.account_id, moved.source_id)) {
			return apiError(CHOICES.movedDomainStatus, `No source with domain "${domain}": it moved to "${moved.url_source}" (source_id "${moved.source_id}" stays)`);
		}
		const which = call.params.url_source !== undefined ? `domain "${call.params.url_source}"` : `id "${call.params.source_id}"`;
		return apiError(404, `No tracked source with ${which}`);
	}
	return source;
}

export function sourceHandlers(context: HandlerContext): HttpHandler[] {
	const { store } = context;
	const answer = (call: ApiCall, id: string | undefined) => {
		const source = trackedSource(context, call, id);
		return source instanceof Response ? source : HttpResponse.json(source);
	};
	return [
		apiRoute(context, 'sourceById', (call) => answer(call, call.params.source_id)),
		apiRoute(context, 'sourceByDomain', (call) =>
			answer(call, store.sourcesByDomain.get(call.params.url_source)?.source_id),
		),
	];
}
