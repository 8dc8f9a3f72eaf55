/**
 * The one way to write a route. Every service route goes through fault
 * injection; /v2 routes then through bearer auth and the account's rate limit,
 * whose headers go on the answer. Every answer goes into the request journal.
 * A route with the data gate answers as a reader of the data (after any injected
 * latency, so a slow fault does not hold a processing cycle back).
 * Handlers match any origin (`*` prefix) so they work under setupServer and
 * behind the standalone server alike.
 */
import { http, type HttpHandler } from 'msw';
import { API_VERSION_SEGMENT } from '../../../contract/api';
import type { Account } from '../data/model.mts';
import type { HandlerContext } from '../handler-context.mts';
import { authenticate } from './auth.mts';
import { apiError } from './respond.mts';

export interface AppCall {
	request: Request;
	url: URL;
	params: Record<string, string>;
	/** The account the route resolved the call's credentials to, for the journal (set by the route). */
	accountId?: string;
}

export interface ApiCall extends AppCall {
	account: Account;
}

type Method = 'get' | 'post' | 'put' | 'delete';

/** A `/v2` route; `path` is its API_PATHS entry. */
export function apiRoute(
	context: HandlerContext,
	method: Method,
	path: string,
	resolve: (call: ApiCall) => Response | Promise<Response>,
): HttpHandler {
	return appRoute(context, method, `${API_VERSION_SEGMENT}${path}`, async (call) => {
		const account = authenticate(call.request, context.store);
		if (account instanceof Response) return account;
		call.accountId = account.account_id;
		const rate = context.limiter.take(account.account_id);
		if (!rate.allowed) return apiError(429, 'Rate limit exceeded: back off and retry after Retry-After seconds', rate.headers);
		const response = await resolve({ ...call, account });
		for (const [name, value] of Object.entries(rate.headers)) response.headers.set(name, value);
		return response;
	});
}

/** An `{app_url}` route: fault injection and the journal (the app routes carry their own credentials). */
export function appRoute(
	{ faults, journal, gate }: Pick<HandlerContext, 'faults'> & Partial<Pick<HandlerContext, 'journal' | 'gate'>>,
	method: Method,
	path: string,
	resolve: (call: AppCall) => Response | Promise<Response>,
): HttpHandler {
	return http[method](`*${path}`, async ({ request, params }) => {
		const url = new URL(request.url);
		const call: AppCall = { request, url, params: decodeParams(params) };
		const response = await faults.around(request, url.pathname, async () => (gate ? gate.reading(() => resolve(call)) : resolve(call)));
		journal?.record(request, url, call.accountId, response);
		return response;
	});
}

function decodeParams(params: Record<string, string | readonly string[] | undefined>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(params)) if (typeof value === 'string') out[name] = value;
	return out;
}
