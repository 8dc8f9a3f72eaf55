/**
 * Where a token may travel: the one rule of both senders of a token, the nodes
 * (nodes/shared/transport/) and the mock's `record` command (mock-server/src/clone/).
 * Pure (URLs in, verdicts out); each sender words its own messages.
 *
 * - Over https:// to any host; over plain http:// only to this machine: 127.0.0.0/8,
 *   `localhost` or `[::1]`. Judged on what the WHATWG parser (`new URL`, which axios
 *   and fetch use) makes of the URL, `protocol` and `hostname` only, never on its text.
 * - To the URL's own origin only: a redirect is followed only when its target has the
 *   same scheme, host and port. A sub-domain is another origin, and so is https → http.
 */

/** A WHATWG hostname that is an IPv4 address in 127.0.0.0/8 (the parser writes every IPv4 host as four decimals; a name whose last label is a number is parsed as an address or refused, so it cannot get here). */
const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Whether a WHATWG URL's `hostname` is this machine: 127.0.0.0/8, `[::1]` or `localhost`. */
export function isLoopbackHostname(hostname: string): boolean {
	return hostname === 'localhost' || hostname === '[::1]' || LOOPBACK_IPV4.test(hostname);
}

/** How a token would travel to a URL: `tls` and `loopback` may carry it, the others may not. */
export type TokenRoute =
	| { route: 'tls' }
	| { route: 'loopback'; hostname: string }
	| { route: 'plain-http'; hostname: string }
	| { route: 'other-scheme'; scheme: string }
	| { route: 'not-a-url' };

export function tokenRoute(url: string): TokenRoute {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return { route: 'not-a-url' };
	}
	if (parsed.protocol === 'https:') return { route: 'tls' };
	if (parsed.protocol === 'http:') return { route: isLoopbackHostname(parsed.hostname) ? 'loopback' : 'plain-http', hostname: parsed.hostname };
	return { route: 'other-scheme', scheme: parsed.protocol.slice(0, -1) };
}

/** The answers whose Location a client would follow. */
export const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308];

/** Same-origin redirects a GET follows in a row; the next one is an error. */
export const MAX_REDIRECTS = 5;

/** Where a redirect answer to `from` points; undefined when its Location is missing or names no URL. */
export function redirectTarget(from: string, location: string | null | undefined): { url: string; sameOrigin: boolean } | undefined {
	if (!location) return undefined;
	try {
		const target = new URL(location, from);
		return { url: target.href, sameOrigin: target.origin === new URL(from).origin };
	} catch {
		return undefined;
	}
}

/** A URL as a message shows it: user and password removed (a token could be one), parsed when it parses. */
export function shownUrl(url: string): string {
	try {
		const parsed = new URL(url);
		parsed.username = '';
		parsed.password = '';
		return url.endsWith('/') ? parsed.href : parsed.href.replace(/\/$/, '');
	} catch {
		return url;
	}
}

/** What the redirect loop reads of an answer (fetch's Response has it). */
export interface HopAnswer {
	readonly status: number;
	readonly headers: { get(name: string): string | null };
	readonly body: { cancel(): Promise<void> } | null;
}

/** A redirect the rule does not follow: another origin, or one past MAX_REDIRECTS in a row. Each sender words it. */
export interface RefusedRedirect {
	why: 'other-origin' | 'too-many';
	status: number;
	from: string;
	to: { url: string; sameOrigin: boolean };
	/** Redirects already followed on the way to `from`. */
	followed: number;
}

/**
 * The one redirect loop of both fetch senders of a token (the nodes' credential test, the mock's `record`): GET
 * `url` through `get` (one request that follows no redirect itself: fetch's `redirect: 'manual'`), and follow each
 * redirect to the same origin, at most MAX_REDIRECTS in a row. Answers the answer at the end, or the redirect not
 * followed (its body cancelled) with why. GET only: a request with a body follows no redirect at all.
 */
export async function getFollowingSameOrigin<A extends HopAnswer>(url: string, get: (url: string) => Promise<A>): Promise<{ answer: A } | { refused: RefusedRedirect }> {
	let target = url;
	for (let followed = 0; ; followed++) {
		const answer = await get(target);
		const to = REDIRECT_STATUSES.includes(answer.status) ? redirectTarget(target, answer.headers.get('location')) : undefined;
		if (to === undefined) return { answer };
		const why = !to.sameOrigin ? 'other-origin' : followed >= MAX_REDIRECTS ? 'too-many' : undefined;
		await answer.body?.cancel();
		if (why !== undefined) return { refused: { why, status: answer.status, from: target, to, followed } };
		target = to.url;
	}
}
