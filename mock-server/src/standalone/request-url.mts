/**
 * The URL of a raw node:http request, or the 4xx answer for a request line or
 * Host header the mock will not route: only an origin-form target ("/path?query")
 * is served, as the service is no proxy; "*" and absolute URIs are 400. A Host
 * that is not a plain host[:port] is 400 too: pasted into the URL it would move
 * the path (`Host: a/b`) or turn it into a query (`Host: a?b`).
 */
import type { IncomingMessage } from 'node:http';
import { LIMITS } from '../base/contract.mts';
import { apiError } from '../http/respond.mts';

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function requestUrl(req: IncomingMessage): URL | Response {
	const target = req.url ?? '';
	if (target.length > LIMITS.maxRequestTargetLength) {
		return apiError(414, `The request target is longer than ${LIMITS.maxRequestTargetLength} characters`);
	}
	if (!target.startsWith('/')) return apiError(400, 'The request target must be a path ("/v2/…"), not "*" or an absolute URI');
	const host = req.headers.host ?? 'localhost';
	if (!HOST.test(host)) return apiError(400, 'The Host header must be host or host:port');
	try {
		return new URL(`http://${host}${target}`);
	} catch {
		// A port above 65535 or a malformed IPv6 address.
		return apiError(400, 'The Host header must be host or host:port');
	}
}
