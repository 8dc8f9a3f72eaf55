/**
 * Which web pages may call the mock, and the CORS headers of its answers (every route: service and control).
 *
 * A request is answered only when it comes from a page allowed to call (`allows`), else 403 before any handler
 * runs (`refusal`): a browser sends a simple cross-origin request (a form, a `text/plain` fetch in no-cors mode)
 * without a preflight, so headers that keep the page from reading the answer would not keep the mock from acting
 * on it. Allowed, by `corsOrigin`:
 *  - `loopback` (the default): pages on http(s)://localhost, http(s)://127.0.0.1 and http(s)://[::1], any port
 *    (exactly these three names, as a browser serializes them; not 127.0.0.2 or *.localhost: list those);
 *  - exact origins separated by commas, `loopback` possibly among them;
 *  - `*`: any page (an opt-in: any site the user opens can read the data and change webhook settings), but the
 *    control routes (`/__mock/…`: every account's token, reset) and WireMock's admin API (`/__admin…`) none.
 * The mock's own page (same origin as the request's URL) is always allowed. A request without `Origin` (curl,
 * n8n, a test client) is served, unless a browser marks it `Sec-Fetch-Site: cross-site` (an `<img>`, a link, a
 * no-cors GET: browsers send no Origin with those); a link to the page itself (a top-level navigation) is served.
 * Preflight (OPTIONS) answers 204 with the methods the path serves; it allows the headers the browser asks for
 * (or Authorization and Content-Type). Answers expose the rate-limit headers and Retry-After to the page's script.
 */
import { CHOICES, LIMITS } from '../base/contract.mts';
import { apiError } from './respond.mts';

/** The header that, like a JSON content type, marks a call that changes the mock as not a browser's simple request. */
export const CONTROL_HEADER = 'X-Mock-Control';

export type CorsOrigins = '*' | { loopback: boolean; listed: readonly string[] };

/** The `corsOrigin` value that allows the loopback origins (the default, and one entry of a list). */
export const LOOPBACK = 'loopback';

/** Reads a `corsOrigin` value: `*`, or `loopback` and origins (scheme://host[:port]) separated by commas. Throws a message naming the bad part. */
export function parseCorsOrigin(value: string): CorsOrigins {
	if (value.trim() === '*') return '*';
	const parts = value.split(',').map((part) => part.trim());
	for (const origin of parts) {
		if (origin === LOOPBACK) continue;
		let url: URL | undefined;
		try {
			url = new URL(origin);
		} catch {
			url = undefined;
		}
		if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin) {
			throw new Error(
				`the CORS origin must be "${LOOPBACK}", "*" or origins separated by commas ("${LOOPBACK}" may be one of them), ` +
					`each http(s)://host[:port] without a path or trailing slash; got "${origin}"`,
			);
		}
	}
	return { loopback: parts.includes(LOOPBACK), listed: parts.filter((part) => part !== LOOPBACK) };
}

/**
 * An origin as a browser sends it for a page on localhost, 127.0.0.1 or [::1] (http or https, any port): the
 * exact serialization, so that a look-alike (`http://127.0.0.1.evil.com`, `http://localhost@evil.com`, `http://0x7f.1`)
 * or an origin no browser sends (`http://localhost:80`, upper case) is not one.
 */
export function isLoopbackOrigin(origin: string): boolean {
	const match = /^(https?):\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::(0|[1-9]\d{0,4}))?$/.exec(origin);
	if (!match) return false;
	if (match[2] === undefined) return true;
	const port = Number(match[2]);
	return port <= 65535 && port !== (match[1] === 'http' ? 80 : 443);
}

/** What the start lines and the refusals say the policy allows. */
const LOOPBACK_WORDS = 'pages on http(s)://localhost, 127.0.0.1 and [::1] (any port)';

const EXPOSED = Object.values(CHOICES.rateLimitHeaderNames).join(', ');
const DEFAULT_ALLOWED_HEADERS = 'Authorization, Content-Type';

/** A request's header by lower-cased name, null when it has none (Headers.get, or node's IncomingMessage headers). */
export type HeaderOf = (name: string) => string | null;

export class Cors {
	private readonly origins: '*' | { loopback: boolean; listed: ReadonlySet<string> };

	constructor(origin: string) {
		const origins = parseCorsOrigin(origin);
		this.origins = origins === '*' ? '*' : { loopback: origins.loopback, listed: new Set(origins.listed) };
	}

	/** Whether a page on `origin` may call `url` (its path, and its own origin: the mock's page is same-origin). */
	allows(origin: string, url: URL): boolean {
		if (origin === url.origin) return true;
		if (this.origins === '*') return this.allowsAnyPage(url);
		return (this.origins.loopback && isLoopbackOrigin(origin)) || this.origins.listed.has(origin);
	}

	private allowsAnyPage(url: URL): boolean {
		return this.origins === '*' && !isControlPath(url.pathname);
	}

	/**
	 * The 403 for a request a page not allowed to call may have sent, or undefined when it may be served.
	 * `navigable`: the URL is the page (a link from another site may open it).
	 */
	refusal(url: URL, header: HeaderOf, navigable = false): Response | undefined {
		const origin = header('origin');
		if (origin === null) {
			if (header('sec-fetch-site') !== 'cross-site' || this.allowsAnyPage(url)) return undefined;
			if (navigable && header('sec-fetch-mode') === 'navigate' && header('sec-fetch-dest') === 'document') return undefined;
			return apiError(403, 'A request a browser sent from another site (Sec-Fetch-Site: cross-site, no Origin header) is refused: the mock serves only the pages allowed by --cors-origin');
		}
		if (this.allows(origin, url)) return undefined;
		const served =
			this.origins === '*' ? 'under --cors-origin * the control routes serve only the mock\'s own page (list an origin by name in --cors-origin to let its pages call them)'
			: `the mock serves ${this.describe()} and its own page (--cors-origin)`;
		return apiError(403, `A page on ${JSON.stringify(origin)} may not call this path: ${served}`);
	}

	/** The policy in one sentence (the CLI's start line). */
	summary(): string {
		if (this.origins === '*') return 'any page may call the service (--cors-origin *); the control routes (/__mock/..., /__admin/...) only the mock\'s own page';
		return `${this.describe()} and the mock's own page may call it; a page on any other origin gets 403 (--cors-origin)`;
	}

	/** The pages a list allows, in words. */
	private describe(): string {
		if (this.origins === '*') return 'pages on any origin';
		const listed = this.origins.listed.size === 0 ? '' : `pages on ${[...this.origins.listed].join(', ')}`;
		if (!this.origins.loopback) return listed;
		return listed === '' ? LOOPBACK_WORDS : `${LOOPBACK_WORDS}, ${listed}`;
	}

	/** The CORS headers of an answer to a request for `url` (undefined: a request the server could not read a URL from) with this Origin header. */
	headers(origin: string | null, url: URL | undefined): Record<string, string> {
		if (this.origins === '*') {
			return url !== undefined && isControlPath(url.pathname) ? {} : { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
		}
		if (origin === null || url === undefined || !this.allows(origin, url)) return { vary: 'Origin' };
		return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED, vary: 'Origin' };
	}

	/** The 204 answer to OPTIONS on a path that serves `allowed`: Allow, plus the preflight headers for an allowed origin. */
	preflight(request: Request, allowed: readonly string[]): Response {
		const headers: Record<string, string> = { allow: allowed.join(', '), ...this.headers(request.headers.get('origin'), new URL(request.url)) };
		if (headers['access-control-allow-origin'] !== undefined) {
			headers['access-control-allow-methods'] = headers.allow;
			headers['access-control-allow-headers'] = request.headers.get('access-control-request-headers') ?? DEFAULT_ALLOWED_HEADERS;
			headers['access-control-max-age'] = String(LIMITS.corsMaxAgeSeconds);
		}
		return new Response(null, { status: 204, headers });
	}

	/** Puts the CORS headers on an answer (not on a dropped connection, which has none). */
	apply(request: Request, response: Response): Response {
		if (response.type === 'error') return response;
		for (const [name, value] of Object.entries(this.headers(request.headers.get('origin'), new URL(request.url)))) response.headers.set(name, value);
		return response;
	}
}

/** The mock's own routes, which no page may call under `*` unless it is the mock's own. */
function isControlPath(pathname: string): boolean {
	return pathname.includes(CONTROL_PREFIX) || pathname === ADMIN_PATH || pathname.startsWith(`${ADMIN_PATH}/`);
}

const CONTROL_PREFIX = '/__mock/';
const ADMIN_PATH = '/__admin';
