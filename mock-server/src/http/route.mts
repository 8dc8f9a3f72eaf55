/**
 * The one way to write a route, and what every route gets: the HandlerContext.
 * Every service route goes through fault injection; /v2 routes then through
 * bearer auth and the account's rate limit, whose headers go on the answer.
 * Every answer goes into the request journal, with the request's headers and body. A route that reads the data answers
 * as a reader of the data gate (after any injected latency, so a slow fault does
 * not hold a cycle back). Handlers match any origin (`*` prefix) so they work
 * under setupServer and behind the standalone server alike. A query parameter the endpoint
 * does not take is a warning (X-Mock-Warning and the journal's `warnings`), or with
 * `strictQuery` a 400 where any bad query parameter is one.
 */
import { http, type HttpHandler } from 'msw';
import { API_VERSION_SEGMENT, CHOICES, type EndpointName, ENDPOINTS } from '../base/contract.mts';
import type { Account } from '../data/model.mts';
import type { Store } from '../data/store.mts';
import type { DataGate } from '../data/data-gate.mts';
import type { Faults } from './faults.mts';
import { captureBody, type Journal } from './journal.mts';
import { knownQueryParameters, unknownQueryMessage, unknownQueryParameters } from './query.mts';
import type { RateLimiter } from './rate-limit.mts';
import { requestNotes } from './request-notes.mts';
import { apiError } from './respond.mts';

/** What handlers need from the service, kept apart so handler files never import the wiring (service.mts builds it). */
export interface HandlerContext {
	readonly store: Store;
	/** Service requests read the data through it, so none sees half a cycle. */
	readonly gate: DataGate;
	readonly limiter: RateLimiter;
	readonly faults: Faults;
	readonly journal: Journal;
	/** A query parameter the endpoint does not take: 400 (true), or only a warning (false: the service may well ignore it). */
	readonly strictQuery: boolean;
}

/** The header that tells a tester what the mock noticed about a call (each warning a value of its own). */
export const WARNING_HEADER = 'X-Mock-Warning';

export interface TokenLookup {
	accountByToken(token: string): Account | undefined;
}

/** Bearer authentication of /v2 calls (and of the webhook settings API): the token's account, or the auth error response (400, CHOICES.authErrorStatus). */
export function authenticate(request: Pick<Request, 'headers'>, accounts: TokenLookup): Account | Response {
	const header = request.headers.get('authorization');
	if (!header) return apiError(CHOICES.authErrorStatus, 'Missing API token: send "Authorization: Bearer <api_token>"');
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	if (!match) return apiError(CHOICES.authErrorStatus, 'Malformed Authorization header: expected "Bearer <api_token>"');
	return accounts.accountByToken(match[1]) ?? apiError(CHOICES.authErrorStatus, 'Invalid API token');
}

export interface AppCall {
	request: Request;
	url: URL;
	params: Record<string, string>;
	/** The account the route resolved the call's credentials to, for the journal (set by the route). */
	accountId?: string;
	/** What the tester is told with the answer (X-Mock-Warning) and in the journal; a handler may add its own. */
	warnings: string[];
	/** The 400 for the parameters the endpoint does not take, under `strictQuery`. */
	unknownQuery?: Response;
}

export interface ApiCall extends AppCall {
	account: Account;
}

/** The endpoints under the API URL (`/v2`, bearer token, rate limit) and under the app URL. */
export type ApiEndpoint = { [E in EndpointName]: (typeof ENDPOINTS)[E]['on'] extends 'api' ? E : never }[EndpointName];
export type AppEndpoint = Exclude<EndpointName, ApiEndpoint>;

/** A `/v2` route: the endpoint's method and path from the contract's table (contract/endpoints.ts). */
export function apiRoute(context: HandlerContext, endpoint: ApiEndpoint, resolve: (call: ApiCall) => Response | Promise<Response>): HttpHandler {
	return route(context, endpoint, `${API_VERSION_SEGMENT}${ENDPOINTS[endpoint].path}`, async (call) => {
		const account = authenticate(call.request, context.store);
		if (account instanceof Response) return account;
		call.accountId = account.account_id;
		const rate = context.limiter.take(account.account_id);
		if (!rate.allowed) return apiError(429, 'Rate limit exceeded: back off and retry after Retry-After seconds', rate.headers);
		// After the token and the budget, as the handlers' own query checks.
		const response = call.unknownQuery ?? await resolve({ ...call, account });
		for (const [name, value] of Object.entries(rate.headers)) response.headers.set(name, value);
		return response;
	});
}

/**
 * An `{app_url}` route: fault injection and the journal (the app routes carry their own credentials).
 * `readsData: false`: the route reads nothing a cycle changes (the webhook settings), so it
 * answers during a cycle instead of waiting for it.
 */
export function appRoute(
	context: HandlerContext,
	endpoint: AppEndpoint,
	resolve: (call: AppCall) => Response | Promise<Response>,
	options: { readsData?: boolean } = {},
): HttpHandler {
	// Before the route's own credentials (in its body or its header, the route's to check).
	return route(context, endpoint, ENDPOINTS[endpoint].path, (call) => call.unknownQuery ?? resolve(call), options);
}

function route(
	context: HandlerContext,
	endpoint: EndpointName,
	path: string,
	resolve: (call: AppCall) => Response | Promise<Response>,
	{ readsData = true }: { readsData?: boolean } = {},
): HttpHandler {
	const { faults, journal, gate, store, strictQuery } = context;
	const handle = { GET: http.get, POST: http.post, DELETE: http.delete }[ENDPOINTS[endpoint].method];
	const known = knownQueryParameters(endpoint);
	return handle(`*${path}`, async ({ request, params }) => {
		const url = new URL(request.url);
		const call: AppCall = { request, url, params: decodeParams(params), warnings: [...requestNotes(request)] };
		const unknown = unknownQueryParameters(url, known);
		if (unknown.length > 0) {
			const message = unknownQueryMessage(unknown, known);
			call.warnings.push(message);
			if (strictQuery) call.unknownQuery = apiError(400, `${message[0].toUpperCase()}${message.slice(1)}`);
		}
		// The journal's copy of the body, read beside the handler's.
		const body = captureBody(request);
		const response = await faults.around(request, url.pathname, async () => (readsData ? gate.reading(() => resolve(call)) : resolve(call)));
		// A dropped connection (an injected fault) has no headers to add to.
		if (response.type !== 'error') for (const warning of call.warnings) response.headers.append(WARNING_HEADER, warning);
		journal.record(request, url, call.accountId ?? bearerAccountId(request, store), response, call.warnings, (await body) ?? null);
		return response;
	});
}

/**
 * The account of a call the route did not resolve (refused before or instead of the route's own
 * check: an injected fault), by its bearer token: the journal's account, or null.
 */
export function bearerAccountId(request: Pick<Request, 'headers'>, accounts: TokenLookup): string | null {
	const account = authenticate(request, accounts);
	return account instanceof Response ? null : account.account_id;
}

function decodeParams(params: Record<string, string | readonly string[] | undefined>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(params)) if (typeof value === 'string') out[name] = value;
	return out;
}
