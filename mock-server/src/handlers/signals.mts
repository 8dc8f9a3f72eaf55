/** The three signals endpoints: page/per_page pagination over the account's signals, newest first. */
import type { HttpHandler } from 'msw';
import { findCategory, isSignalGroup, type Pagination, type Signal, signalsQuerySchema } from '../base/contract.mts';
import { RecentResults } from '../data/recent-results.mts';
import { paginate } from '../http/pagination.mts';
import { parseQuery } from '../http/query.mts';
import { KeptBody } from '../http/kept-body.mts';
import { apiError } from '../http/respond.mts';
import { apiRoute, type ApiCall, type HandlerContext } from '../http/route.mts';
import { envelopeChunks } from './record-json.mts';

/** A signals envelope as UTF-8 chunks; each signal's JSON is computed once (record-json.mts). */
function signalsChunks(where: { group: string; category?: string; type?: string }, pagination: Pagination, signals: readonly Signal[]): Uint8Array<ArrayBuffer>[] {
	// Field order follows the spec's envelope table; category/type only on their endpoints.
	return envelopeChunks({ group: where.group, category: where.category, type: where.type, pagination }, 'signals', signals);
}

export function signalHandlers(context: HandlerContext): HttpHandler[] {
	// Clients re-read the same pages (polling, paging): a page's body is made once per data version.
	const recentPages = new RecentResults<KeptBody>(32);
	const answer = ({ url, params, account }: ApiCall) => {
		const { group, category, type } = params;
		if (!isSignalGroup(group)) return apiError(404, `Unknown signal group "${group}"`);
		if (category !== undefined) {
			const info = findCategory(group, category);
			if (!info) return apiError(404, `Unknown category "${category}" in group "${group}"`);
			if (type !== undefined && !info.types.includes(type)) return apiError(404, `Unknown type "${type}" in category "${group}/${category}"`);
		}
		const query = parseQuery(signalsQuerySchema, url);
		if (query instanceof Response) return query;
		const key = JSON.stringify([account.account_id, group, category, type, query]);
		const body = recentPages.get(key, context.store.version, () => {
			const matching = context.store.signalsOf(account.account_id, {
				group,
				category,
				type,
				directOnly: query.direct_only,
				activeOnly: query.active_only,
			});
			const { pagination, items } = paginate(matching, query.page, query.per_page);
			return new KeptBody(signalsChunks({ group, category, type }, pagination, items));
		});
		return body.response();
	};
	return [
		apiRoute(context, 'signalsOfType', answer),
		apiRoute(context, 'signalsOfCategory', answer),
		apiRoute(context, 'signalsOfGroup', answer),
	];
}
