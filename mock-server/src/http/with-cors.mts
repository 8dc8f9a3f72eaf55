/**
 * The service's one msw handler: the routes behind CORS. OPTIONS on a path the
 * routes serve is the preflight answer; every other answer gets the CORS
 * headers. A request no route answers falls through (unhandled in-process; the
 * standalone server answers 404 or 405 and adds the headers itself). `before` may answer
 * first (the WireMock stubs: wiremock/stub-answers.mts); it returns undefined at once when it
 * has nothing for the request.
 */
import { getResponse, http, matchRequestUrl, type HttpHandler } from 'msw';
import type { Cors } from './cors.mts';

export function withCors(cors: Cors, routes: readonly HttpHandler[], before?: (request: Request) => Promise<Response | undefined> | undefined): HttpHandler {
	return http.all('*', async ({ request }) => {
		if (request.method === 'OPTIONS') {
			const allowed = allowedMethods(routes, new URL(request.url));
			return allowed.length === 0 ? undefined : cors.preflight(request, allowed);
		}
		const early = before?.(request);
		const response = (early && (await early)) ?? (await getResponse([...routes], request));
		return response && cors.apply(request, response);
	});
}

/**
 * The methods the handlers serve for a URL: the preflight's 204 with Allow
 * (above), the standalone server's 405 with Allow on a known path, and its 404
 * elsewhere. Read from the handlers themselves, so a new route needs nothing here.
 */
export function allowedMethods(handlers: readonly HttpHandler[], url: URL): string[] {
	const methods = new Set<string>();
	for (const { info } of handlers) {
		if (typeof info.method !== 'string' || typeof info.path !== 'string') continue;
		if (matchRequestUrl(url, info.path).matches) methods.add(info.method);
	}
	// HEAD is answered as GET without the body.
	if (methods.has('GET')) methods.add('HEAD');
	if (methods.size > 0) methods.add('OPTIONS');
	return [...methods].sort();
}
