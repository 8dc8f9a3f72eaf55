/**
 * Tokens only over TLS, and only to the credential's own origin: the API token
 * (Authorization header) and the subscriber upload access token (in the body)
 * go over https://, or over plain http:// to this machine only (a local mock),
 * and never on to another origin by a redirect. The rule is the contract's
 * (contract/token-transport.ts, which the mock's `record` command holds to as
 * well); here it gets the words the credential dialog uses. Checked on the exact
 * URL a request is about to be sent to, before anything is sent, by the only two
 * senders the package has: serviceRequest (request.ts: every call of the action
 * node, both triggers and the option lists) and the credential test
 * (credential-test.ts), and again on every redirect target.
 *
 * The URL is read the way the HTTP clients read it (`new URL`), and only its
 * `protocol` and `hostname` are judged, never the text:
 * - `http://127.0.0.1.evil.com`, `http://localhost.evil.com`: host names, not this machine: refused;
 * - `http://127.0.0.1@evil.com`, `http://evil.com#@127.0.0.1`: the host is evil.com: refused;
 * - `HTTP://LOCALHOST`: scheme and host name are lower-cased by the parser: accepted;
 * - `http://0x7f000001`, `http://2130706433`, `http://127.1`, `http://0177.0.0.1`: the parser
 *   makes each `127.0.0.1`, the address the client then connects to: accepted;
 * - `http://[::1]` (and `[0:0:0:0:0:0:0:1]`, which the parser writes `[::1]`): accepted;
 * - `http://[::ffff:127.0.0.1]` (IPv4-mapped IPv6, `[::ffff:7f00:1]` once parsed): refused. It
 *   reaches 127.0.0.1 only where the system maps IPv4 into IPv6 sockets; the three documented
 *   forms are what a local mock needs, so write 127.0.0.1;
 * - `http://localhost.` (trailing dot), `*.localhost`, `0.0.0.0`, `[::]`: refused (not in the list);
 * - any other scheme (`ftp:`, `ws:`, `file:`, …), and a URL that does not parse: refused.
 */
import { MAX_REDIRECTS, shownUrl, tokenRoute, type RefusedRedirect } from '../contract';

export { isLoopbackHostname } from '../contract';

/** The credential's URL fields, as the credential dialog names them. */
export type UrlField = 'API Base URL' | 'App URL';

const WHAT_TRAVELS: Record<UrlField, string> = {
	'API Base URL': 'the API token',
	'App URL': 'the API token and the subscriber upload access token',
};

const USE_HTTPS = 'Use https:// (plain http:// only for a local mock on 127.0.0.1, localhost or [::1]).';

/**
 * Why a token may not be sent to `url`, in words a user can act on; undefined when it may.
 * `configured` is the credential's value the URL was built from: the message names it (without any user:password@).
 */
export function tokenTransportProblem(url: string, field: UrlField, configured: string = url): string | undefined {
	const verdict = tokenRoute(url);
	switch (verdict.route) {
		case 'tls':
		case 'loopback':
			return undefined;
		case 'plain-http':
			return `The ${field} ${shownUrl(configured)} uses plain http:// to ${verdict.hostname}, which is not this machine: ${WHAT_TRAVELS[field]} would cross the network unencrypted, so nothing was sent. ${USE_HTTPS}`;
		case 'other-scheme':
			return `The ${field} ${shownUrl(configured)} uses the scheme ${verdict.scheme} rather than https, so nothing was sent. ${USE_HTTPS}`;
		case 'not-a-url':
			return `The ${field} ${shownUrl(configured)} is not a valid URL, so nothing was sent. ${USE_HTTPS}`;
	}
}

/** A redirect answer, as the sender read it: its status, where it came from, and where it points (redirectTarget). */
export interface Redirect {
	status: number;
	from: string;
	to: { url: string; sameOrigin: boolean };
	method: string;
	/** Redirects already followed on the way to `from`. */
	followed: number;
}

/**
 * Why a redirect is not followed, in words a user can act on; undefined when it is: a GET to the same origin,
 * at most MAX_REDIRECTS in a row. Another origin (a sub-domain, another port, https → http) would get the token
 * it was not given to; a request with another method would be re-sent with its body, or turned into a GET.
 */
export function redirectProblem(redirect: Redirect, field: UrlField): string | undefined {
	const { status, to, method, followed } = redirect;
	if (!to.sameOrigin) return refusedRedirectMessage({ ...redirect, why: 'other-origin' }, field);
	if (method !== 'GET') return `The service answered ${status} with a redirect to ${shownUrl(to.url)}: a ${method} request follows no redirect (it would be sent again, or turned into a GET), so it was not followed.`;
	if (followed >= MAX_REDIRECTS) return refusedRedirectMessage({ ...redirect, why: 'too-many' }, field);
	return undefined;
}

/** A redirect the shared loop (getFollowingSameOrigin) did not follow, in the same words as redirectProblem. */
export function refusedRedirectMessage(refused: RefusedRedirect, field: UrlField): string {
	const answered = `The service answered ${refused.status} with a redirect to ${shownUrl(refused.to.url)}`;
	if (refused.why === 'too-many') return `${answered} after ${MAX_REDIRECTS} redirects in a row, so it was not followed further.`;
	return `${answered}, another origin than ${new URL(refused.from).origin}: the credential's tokens go to the ${field}'s own origin only (a sub-domain, another port or http:// is another origin), so the redirect was not followed. If the service has moved, put its new address into the ${field}.`;
}
