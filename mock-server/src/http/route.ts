/**
 * The wrapper every service route goes through: fault injection, then (for
 * /v2) bearer auth and the account's rate limit, whose headers go on the answer.
 * Handlers match any origin (`*` prefix) so they work under setupServer and
 * behind the standalone server alike.
 */
import { http, type HttpHandler } from 'msw';
import { API_VERSION_SEGMENT } from '../contract/api';
import type { Account } from '../data/model';
import type { ServiceContext } from '../service-context';
import { authenticate } from './auth';
import { apiError } from './respond';

export interface ApiCall {
	request: Request;
	url: URL;
	params: Record<string, string>;
	account: Account;
}

type Method = 'get' | 'post' | 'put' | 'delete';

/** msw path of a /v2 endpoint from its API_PATHS entry. */
export const apiPath = (path: string) => `*${API_VERSION_SEGMENT}${path}`;

export function apiRoute(
	context: ServiceContext,
	method: Method,
	path: string,
	resolve: (call: ApiCall) => Response | Promise<Response>,
): HttpHandler {
	return http[method](apiPath(path), async ({ request, params }) => {
		const url = new URL(request.url);
		const fault = await context.faults.apply(request, url.pathname);
		if (fault) return fault;
		const account = authenticate(request, context.store);
		if (account instanceof Response) return account;
		const rate = context.limiter.take(account.account_id);
		if (!rate.allowed) return apiError(429, 'Rate limit exceeded: back off and retry after Retry-After seconds', rate.headers);
		const response = await resolve({ request, url, params: decodeParams(params), account });
		for (const [name, value] of Object.entries(rate.headers)) response.headers.set(name, value);
		return response;
	});
}

/** An `{app_url}` route: fault injection only (the app routes carry their own credentials). */
export function appRoute(
	context: ServiceContext,
	method: Method,
	path: string,
	resolve: (request: Request) => Response | Promise<Response>,
): HttpHandler {
	return http[method](`*${path}`, async ({ request }) => {
		const fault = await context.faults.apply(request, new URL(request.url).pathname);
		return fault ?? resolve(request);
	});
}

function decodeParams(params: Record<string, string | readonly string[] | undefined>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(params)) if (typeof value === 'string') out[name] = value;
	return out;
}
