/**
 * CORS, so a browser app can call the mock (every route: service and control).
 * The allowed origins are `*` (any; the default) or a list of exact origins;
 * with a list, an answer to another origin carries no CORS headers (the
 * browser then refuses it) and every answer carries `Vary: Origin`, since it
 * depends on the Origin header. Preflight (OPTIONS) answers 204 with the
 * methods the path serves; it allows the headers the browser asks for (or
 * Authorization and Content-Type). Answers expose the rate-limit headers and
 * Retry-After to the page's script.
 * The control routes (`/__mock/…`: every account's token, reset) and WireMock's
 * admin API (`/__admin…`) are the exception to `*`: with it they carry no CORS
 * headers, so no page may read or preflight them; an origin listed by name may.
 */
import { CHOICES, LIMITS } from '../../../contract/api';

export type CorsOrigins = '*' | readonly string[];

/** Reads a `corsOrigin` value: `*`, or origins (scheme://host[:port]) separated by commas. Throws a message naming the bad part. */
export function parseCorsOrigin(value: string): CorsOrigins {
	if (value.trim() === '*') return '*';
	const origins = value.split(',').map((part) => part.trim());
	for (const origin of origins) {
		let url: URL | undefined;
		try {
			url = new URL(origin);
		} catch {
			url = undefined;
		}
		if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin) {
			throw new Error(`the CORS origin must be "*" or origins separated by commas, each http(s)://host[:port] without a path or trailing slash; got "${origin}"`);
		}
	}
	return origins;
}

const EXPOSED = Object.values(CHOICES.rateLimitHeaderNames).join(', ');
const DEFAULT_ALLOWED_HEADERS = 'Authorization, Content-Type';

export class Cors {
	private readonly origins: '*' | ReadonlySet<string>;

	constructor(origin: string) {
		const origins = parseCorsOrigin(origin);
		this.origins = origins === '*' ? '*' : new Set(origins);
	}

	/** The CORS headers of an answer to a request for this path with this Origin header (null: none). */
	headers(origin: string | null, pathname: string): Record<string, string> {
		const allow = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
		if (this.origins === '*') return isControlPath(pathname) ? {} : allow;
		if (origin === null || !this.origins.has(origin)) return { vary: 'Origin' };
		return { ...allow, 'access-control-allow-origin': origin, vary: 'Origin' };
	}

	/** The 204 answer to OPTIONS on a path that serves `allowed`: Allow, plus the preflight headers for an allowed origin. */
	preflight(request: Request, allowed: readonly string[]): Response {
		const headers: Record<string, string> = { allow: allowed.join(', '), ...this.headers(request.headers.get('origin'), new URL(request.url).pathname) };
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
		for (const [name, value] of Object.entries(this.headers(request.headers.get('origin'), new URL(request.url).pathname))) response.headers.set(name, value);
		return response;
	}
}

/** The mock's own routes, whose answers no page may read unless its origin is listed. */
function isControlPath(pathname: string): boolean {
	return pathname.includes(CONTROL_PREFIX) || pathname === ADMIN_PATH || pathname.startsWith(`${ADMIN_PATH}/`);
}

const CONTROL_PREFIX = '/__mock/';
const ADMIN_PATH = '/__admin';
