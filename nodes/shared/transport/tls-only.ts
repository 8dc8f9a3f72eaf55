/**
 * Tokens only over TLS: the API token (Authorization header) and the subscriber
 * upload access token (in the body) go over https://, or over plain http:// to
 * this machine only (a local mock). Checked on the exact URL a request is about
 * to be sent to, before anything is sent, by the only two senders the package
 * has: serviceRequest (request.ts: every call of the action node, both
 * triggers and the option lists) and the credential test (credential-test.ts).
 *
 * The URL is read the way the HTTP clients read it, with the WHATWG parser
 * (`new URL`, which axios in n8n's request helper and fetch both use), and only
 * its `protocol` and `hostname` are judged, never the text:
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

/** The credential's URL fields, as the credential dialog names them. */
export type UrlField = 'API Base URL' | 'App URL';

/** A WHATWG hostname that is an IPv4 address in 127.0.0.0/8 (the parser writes every IPv4 host as four decimals; a name whose last label is a number is parsed as an address or refused, so it cannot get here). */
const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Whether a WHATWG URL's `hostname` is this machine: 127.0.0.0/8, `[::1]` or `localhost`. */
export function isLoopbackHostname(hostname: string): boolean {
	return hostname === 'localhost' || hostname === '[::1]' || LOOPBACK_IPV4.test(hostname);
}

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
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return `The ${field} ${shown(configured)} is not a valid URL, so nothing was sent. ${USE_HTTPS}`;
	}
	if (parsed.protocol === 'https:') return undefined;
	if (parsed.protocol === 'http:') {
		if (isLoopbackHostname(parsed.hostname)) return undefined;
		return `The ${field} ${shown(configured)} uses plain http:// to ${parsed.hostname}, which is not this machine: ${WHAT_TRAVELS[field]} would cross the network unencrypted, so nothing was sent. ${USE_HTTPS}`;
	}
	return `The ${field} ${shown(configured)} uses the scheme ${parsed.protocol.slice(0, -1)} rather than https, so nothing was sent. ${USE_HTTPS}`;
}

/** The URL as a message shows it: parsed when it parses, user and password removed, no trailing slash added. */
function shown(url: string): string {
	try {
		const parsed = new URL(url);
		parsed.username = '';
		parsed.password = '';
		return url.endsWith('/') ? parsed.href : parsed.href.replace(/\/$/, '');
	} catch {
		return url;
	}
}
