/**
 * The service's one msw handler: the routes behind CORS. A request for a path
 * the mock answers, from a page not allowed to call it, is refused first
 * (Cors.refusal), before anything else sees it; a request for another URL is
 * left alone (in-process, msw hands this handler every request the code under
 * test makes). Every other answer gets the CORS headers. A request no route
 * answers falls through (unhandled in-process; the standalone server answers
 * 404 or 405 and adds the headers itself). `stubs` may answer first (WireMock's:
 * wiremock/stub-answers.mts); `answer` returns undefined at once when it has
 * nothing for the request, `serves` says whether a stub may answer a path,
 * `methods` with which methods.
 *
 * OPTIONS: a CORS preflight (it carries Access-Control-Request-Method) is always
 * the mock's own answer, never a stub's, so a stub cannot loosen or break what a
 * page may call; any other OPTIONS request goes to the stubs first, then gets the
 * mock's 204 with Allow. HEAD: a HEAD (or ANY) stub's answer, else the answer to
 * the same request as GET (a GET stub's or the service's); the HTTP layer sends
 * no body with it (node:http standalone, msw's socket in-process).
 * A request nothing answers because a stub's pattern was over the request's work
 * budget (http/request-notes.mts) gets a 404 saying so, not silence.
 */
import { getResponse, http, matchRequestUrl, type HttpHandler } from 'msw';
import type { Cors } from './cors.mts';
import { journalAs } from './journal.mts';
import { requestNotes } from './request-notes.mts';
import { apiError } from './respond.mts';
import { WARNING_HEADER } from './route.mts';

export interface StubsFirst {
	answer(request: Request): Promise<Response | undefined> | undefined;
	serves(pathname: string): boolean;
	methods(pathname: string): readonly string[];
}

export function withCors(cors: Cors, routes: readonly HttpHandler[], stubs?: StubsFirst): HttpHandler {
	const respond = async (request: Request): Promise<Response | undefined> => {
		const early = stubs?.answer(request);
		const response = (early && (await early)) ?? (await getResponse([...routes], request)) ?? overBudget(request);
		return response && cors.apply(request, response);
	};
	return http.all('*', async ({ request }) => {
		const url = new URL(request.url);
		// The refusal first: it is cheap and almost always none, while the paths served are matched handler by handler.
		const refused = cors.refusal(url, (name) => request.headers.get(name));
		if (refused && (stubs?.serves(url.pathname) || allowedMethods(routes, url).length > 0)) return refused;
		if (request.method === 'OPTIONS') {
			if (!request.headers.has('access-control-request-method')) {
				const stubbed = await stubs?.answer(request);
				if (stubbed) return cors.apply(request, stubbed);
			}
			const all = allowedMethods(routes, url, stubs?.methods(url.pathname));
			return all.length === 0 ? undefined : cors.preflight(request, all);
		}
		if (request.method === 'HEAD') {
			const stubbed = await stubs?.answer(request);
			if (stubbed) return cors.apply(request, stubbed);
			const asGet = new Request(request.url, { method: 'GET', headers: request.headers });
			// Journaled as sent (http/journal.mts), though answered as GET.
			journalAs(asGet, 'HEAD');
			return respond(asGet);
		}
		return respond(request);
	});
}

/**
 * The methods the handlers serve for a URL, and those stubs may answer it with
 * (`stubbed`): the preflight's 204 with Allow (above), the standalone server's 405
 * with Allow on a known path, and its 404 elsewhere. Read from the handlers
 * themselves, so a new route needs nothing here.
 */
export function allowedMethods(handlers: readonly HttpHandler[], url: URL, stubbed: readonly string[] = []): string[] {
	const methods = new Set<string>(stubbed);
	for (const { info } of handlers) {
		if (typeof info.method !== 'string' || typeof info.path !== 'string') continue;
		if (matchRequestUrl(url, info.path).matches) methods.add(info.method);
	}
	// HEAD is answered as GET without the body.
	if (methods.has('GET')) methods.add('HEAD');
	if (methods.size > 0) methods.add('OPTIONS');
	return [...methods].sort();
}

/** The 404 for a request no stub matched because a pattern was over the budget, each note an X-Mock-Warning. */
function overBudget(request: Request): Response | undefined {
	const notes = requestNotes(request);
	if (notes.length === 0) return undefined;
	const response = apiError(404, 'No stub matched this request: a pattern was over the request\'s work budget (see X-Mock-Warning)');
	for (const note of notes) response.headers.append(WARNING_HEADER, note);
	return response;
}
