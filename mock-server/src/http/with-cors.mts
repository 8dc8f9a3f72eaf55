/**
 * The service's one msw handler: the routes behind CORS. OPTIONS on a path the
 * routes serve is the preflight answer; every other answer gets the CORS
 * headers. A request no route answers falls through (unhandled in-process; the
 * standalone server answers 404 or 405 and adds the headers itself).
 */
import { getResponse, http, type HttpHandler } from 'msw';
import { allowedMethods } from './allowed-methods.mts';
import type { Cors } from './cors.mts';

export function withCors(cors: Cors, routes: readonly HttpHandler[]): HttpHandler {
	return http.all('*', async ({ request }) => {
		if (request.method === 'OPTIONS') {
			const allowed = allowedMethods(routes, new URL(request.url));
			return allowed.length === 0 ? undefined : cors.preflight(request, allowed);
		}
		const response = await getResponse([...routes], request);
		return response && cors.apply(request, response);
	});
}
