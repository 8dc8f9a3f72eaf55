/**
 * The methods the handlers serve for a URL: the preflight's 204 with Allow
 * (with-cors.ts), the standalone server's 405 with Allow on a known path, and
 * its 404 elsewhere.
 * Read from the handlers themselves, so a new route needs nothing here.
 */
import { matchRequestUrl, type HttpHandler } from 'msw';

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
