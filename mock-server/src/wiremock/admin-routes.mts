/**
 * The subset of WireMock's admin API the mock serves, under /__admin: stub mappings,
 * request verification over the mock's journal, scenarios, the global reset, health and version.
 * Every error they answer is WireMock's error body (admin-error.mts). Like the
 * control routes (handlers/control.mts) they have no auth, no rate limit, no faults, are
 * not journaled, and no page on an origin the mock does not allow may call them, nor any page
 * but the mock's own under `*` (http/cors.mts). A call that changes something (POST, PUT, DELETE)
 * from an allowed page is still refused (403) when the browser sent it without a preflight: it carries an Origin header (browsers always send one with these methods, and
 * pages cannot remove it) and neither `Content-Type: application/json` nor X-Mock-Control.
 * WireMock's clients send no Origin, so they pass with or without a JSON content type.
 * Any other /__admin route is a 404: one of WireMock's (not-served-routes.mts) says it is WireMock's and not
 * served here, any other that it is unknown; another method on a route served here (by its literal path) is a 405
 * with Allow.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { z } from 'zod/v4';
import { CONTROL_HEADER } from '../http/cors.mts';
import { parseQuery } from '../http/query.mts';
import { allowedMethods } from '../http/with-cors.mts';
import { adminError, JSON_ERROR_TITLE, pointerOf } from './admin-error.mts';
import { isPlainObject, MappingError } from './content-patterns.mts';
import { healthAnswer, versionAnswer, type Running } from './health.mts';
import type { JournalQuery } from './journal-query.mts';
import { StubsFull, type MappingsStore } from './mappings-store.mts';
import { nearMissesForRequest } from './near-misses.mts';
import { notServedWhy } from './not-served-routes.mts';

/** WireMock's admin API's root. */
export const ADMIN_PREFIX = '/__admin';

export interface AdminActions {
	mappings: MappingsStore;
	requests: JournalQuery;
	/** Empties the request journal (the one GET /__mock/requests reads too). */
	clearJournal(): void;
	/** The process, for GET /__admin/health. */
	running: Running;
}

type Resolver = Parameters<typeof http.post>[1];

/** The 403 for a changing call a page could have sent cross-site without a preflight, or undefined. */
function crossSiteRefusal(request: Request): Response | undefined {
	if (!request.headers.has('origin')) return undefined;
	const type = request.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
	if (type === 'application/json' || request.headers.has(CONTROL_HEADER)) return undefined;
	return adminError(
		403,
		`A browser's call to the WireMock admin API that changes the mock needs "Content-Type: application/json" or an ${CONTROL_HEADER} header (a web page cannot send either cross-site without a preflight)`,
	);
}

const changing = (resolve: Resolver): Resolver => (info) => crossSiteRefusal(info.request) ?? resolve(info);

/** The body as JSON (`empty`: the value an empty body stands for; undefined: a body is required). */
async function jsonBody(request: Request, empty?: unknown): Promise<{ value: unknown } | Response> {
	const text = (await request.text()).trim();
	if (text === '') return empty === undefined ? adminError(400, 'The body must be JSON (it is empty)', { title: JSON_ERROR_TITLE }) : { value: empty };
	try {
		return { value: JSON.parse(text) as unknown };
	} catch {
		return adminError(400, 'The body must be JSON', { title: JSON_ERROR_TITLE });
	}
}

/** A MappingError as a 400 naming the field; anything else is thrown on. */
function refused(error: unknown, what: string): Response {
	if (error instanceof MappingError) {
		return adminError(400, `Invalid ${what}: ${error.message} (see the README, "WireMock admin API (stubs and verification)")`, { title: JSON_ERROR_TITLE, pointer: pointerOf(error.field) });
	}
	if (error instanceof StubsFull) return adminError(409, error.message);
	throw error;
}

const ok = () => HttpResponse.json({});
const withWarnings = (warnings: string[]) => (warnings.length === 0 ? {} : { warnings });
const param = (value: string | readonly string[] | undefined): string => (typeof value === 'string' ? value : '');

/** The query read with its schema; a parameter the route does not take is a 400 too (an admin call is the test's own: a typo should show). */
function adminQuery<S extends z.ZodObject>(schema: S, url: URL): z.infer<S> | Response {
	for (const name of url.searchParams.keys()) {
		if (!Object.hasOwn(schema.shape, name)) return adminError(400, `Invalid query parameter "${name}": this route takes ${Object.keys(schema.shape).join(', ')}`);
	}
	return parseQuery(schema, url, [], (message) => adminError(400, message));
}

const listQuery = z.object({ limit: z.coerce.number().int().min(1).optional(), offset: z.coerce.number().int().min(0).optional() }).strict();
const requestsQuery = z
	.object({
		limit: z.coerce.number().int().min(1).optional(),
		since: z.iso.datetime({ offset: true, local: false }).optional(),
	})
	.strict();

export function adminRoutes({ mappings, requests, clearJournal, running }: AdminActions): HttpHandler[] {
	const path = (p: string) => `*${ADMIN_PREFIX}${p}`;
	const withPattern = async (request: Request, answer: (pattern: unknown) => Response): Promise<Response> => {
		const body = await jsonBody(request, {});
		if (body instanceof Response) return body;
		try {
			return answer(body.value);
		} catch (error) {
			return refused(error, 'request pattern');
		}
	};
	const served = [
		http.get(path('/health'), () => HttpResponse.json(healthAnswer(running))),
		http.get(path('/version'), () => HttpResponse.json(versionAnswer())),
		http.get(path('/mappings'), ({ request }) => {
			const query = adminQuery(listQuery, new URL(request.url));
			if (query instanceof Response) return query;
			const all = mappings.list();
			const offset = query.offset ?? 0;
			return HttpResponse.json({ mappings: all.slice(offset, query.limit === undefined ? undefined : offset + query.limit), meta: { total: all.length } });
		}),
		http.post(path('/mappings'), changing(async ({ request }) => {
			const body = await jsonBody(request);
			if (body instanceof Response) return body;
			try {
				return HttpResponse.json(mappings.add(body.value), { status: 201 });
			} catch (error) {
				return refused(error, 'mapping');
			}
		})),
		http.delete(path('/mappings'), changing(() => {
			mappings.clear();
			return ok();
		})),
		// WireMock restores the mappings from its files; the mock has none, so none are left.
		http.post(path('/mappings/reset'), changing(() => {
			mappings.clear();
			return ok();
		})),
		// WireMock's, not served, and not a stub's id.
		http.all(path('/mappings/unmatched'), ({ request }) => unserved(request)),
		http.get(path('/mappings/:id'), ({ params }) => {
			const mapping = mappings.get(param(params.id));
			return mapping ? HttpResponse.json(mapping) : adminError(404, `No stub mapping with id "${param(params.id)}"`);
		}),
		http.put(path('/mappings/:id'), changing(async ({ request, params }) => {
			const body = await jsonBody(request);
			if (body instanceof Response) return body;
			try {
				const mapping = mappings.replace(param(params.id), body.value);
				return mapping ? HttpResponse.json(mapping) : adminError(404, `No stub mapping with id "${param(params.id)}"`);
			} catch (error) {
				return refused(error, 'mapping');
			}
		})),
		http.delete(path('/mappings/:id'), changing(({ params }) =>
			mappings.remove(param(params.id)) ? ok() : adminError(404, `No stub mapping with id "${param(params.id)}"`),
		)),
		http.post(path('/reset'), changing(() => {
			mappings.clear();
			clearJournal();
			return ok();
		})),
		http.get(path('/requests'), ({ request }) => {
			const query = adminQuery(requestsQuery, new URL(request.url));
			if (query instanceof Response) return query;
			const { requests: events, total } = requests.serveEvents({ limit: query.limit, since: query.since === undefined ? undefined : Date.parse(query.since) });
			return HttpResponse.json({ requests: events, meta: { total }, requestJournalDisabled: false });
		}),
		http.delete(path('/requests'), changing(() => {
			clearJournal();
			return ok();
		})),
		http.post(path('/requests/reset'), changing(() => {
			clearJournal();
			return ok();
		})),
		// `warnings` only when the pattern asks for what the journal keeps redacted: WireMock's answer otherwise.
		http.post(path('/requests/find'), changing(({ request }) => withPattern(request, (pattern) => {
			const { requests: found, warnings } = requests.find(pattern);
			return HttpResponse.json({ requests: found, requestJournalDisabled: false, ...withWarnings(warnings) });
		}))),
		http.post(path('/requests/count'), changing(({ request }) => withPattern(request, (pattern) => {
			const { count, warnings } = requests.count(pattern);
			return HttpResponse.json({ count, requestJournalDisabled: false, ...withWarnings(warnings) });
		}))),
		http.post(path('/requests/remove'), changing(({ request }) => withPattern(request, (pattern) => {
			const { requests: removed, warnings } = requests.remove(pattern);
			return HttpResponse.json({ requests: removed, ...withWarnings(warnings) });
		}))),
		http.get(path('/requests/unmatched'), () => HttpResponse.json({ requests: requests.unmatched(), requestJournalDisabled: false })),
		http.get(path('/requests/unmatched/near-misses'), () => HttpResponse.json({ nearMisses: requests.unmatchedNearMisses() })),
		// WireMock's paths, and (the same routes) where wiremock-rest-client 1.11 posts them: under /requests.
		...['/near-misses/request', '/requests/near-misses/request'].map((each) =>
			http.post(path(each), changing(async ({ request }) => {
				const body = await jsonBody(request);
				if (body instanceof Response) return body;
				try {
					return HttpResponse.json({ nearMisses: nearMissesForRequest(mappings, body.value) });
				} catch (error) {
					return refused(error, 'logged request');
				}
			})),
		),
		...['/near-misses/request-pattern', '/requests/near-misses/request-pattern'].map((each) =>
			http.post(path(each), changing(({ request }) => withPattern(request, (pattern) => HttpResponse.json({ nearMisses: requests.nearMissesFor(pattern) })))),
		),
		http.get(path('/requests/:id'), ({ params }) => {
			const event = requests.byId(param(params.id));
			return event ? HttpResponse.json(event) : adminError(404, `No request with id "${param(params.id)}" in the journal`);
		}),
		http.delete(path('/requests/:id'), changing(({ params }) =>
			requests.removeById(param(params.id)) ? ok() : adminError(404, `No request with id "${param(params.id)}" in the journal`),
		)),
		http.get(path('/scenarios'), () => HttpResponse.json({ scenarios: mappings.scenarios() })),
		http.post(path('/scenarios/reset'), changing(() => {
			mappings.resetScenarios();
			return ok();
		})),
		http.put(path('/scenarios/:name/state'), changing(async ({ request, params }) => {
			const body = await jsonBody(request, {});
			if (body instanceof Response) return body;
			const given = body.value;
			if (!isPlainObject(given) || Object.keys(given).some((key) => key !== 'state') || (given.state !== undefined && typeof given.state !== 'string')) {
				return adminError(400, 'The body must be {"state": "<a state of the scenario>"}, or empty for "Started"');
			}
			const problem = mappings.setScenarioState(param(params.name), given.state as string | undefined);
			return problem === undefined ? ok() : adminError(problem.unknown === 'scenario' ? 404 : 400, problem.message);
		})),
	];
	// Only by a literal path: one a parameter matches may be another of WireMock's (POST /__admin/mappings/find-by-metadata).
	const literal = served.filter(({ info }) => typeof info.path === 'string' && !info.path.includes('/:'));

	/**
	 * An /__admin route no handler above has: WireMock's (404, and why not here), another method on a served path
	 * (405 with Allow), or unknown (404, and what its path serves, if anything).
	 */
	function unserved(request: Request): Response {
		const url = new URL(request.url);
		const route = `${request.method} ${url.pathname}`;
		const why = notServedWhy(request.method, url.pathname.slice(ADMIN_PREFIX.length));
		if (why !== undefined) return adminError(404, `${route} is WireMock's, and not served by this mock: ${why} (see the README, "WireMock admin API (stubs and verification)")`);
		const allowed = allowedMethods(literal, url);
		if (allowed.length > 0) return adminError(405, `${request.method} is not allowed here; allowed: ${allowed.join(', ')}`, { headers: { allow: allowed.join(', ') } });
		const methods = allowedMethods(served, url).filter((method) => method !== 'OPTIONS');
		const others = methods.length === 0 ? '' : `; this path serves ${methods.join(', ')}`;
		return adminError(404, `${route} is no route of WireMock's admin API or of this mock${others} (the routes served: the README, "WireMock admin API (stubs and verification)")`);
	}
	return [
		...served,
		// Last: another method on a served path, the rest of WireMock's admin API (recordings, settings, files, shutdown, …), and routes no one has.
		...[path(''), path('/*')].map((each) => http.all(each, ({ request }) => unserved(request))),
	];
}
