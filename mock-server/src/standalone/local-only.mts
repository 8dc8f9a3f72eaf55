/**
 * What the standalone server refuses before any handler runs, so that only
 * local clients and the names the user allowed drive it:
 *  - a Host that is a name other than localhost (or *.localhost) and not one
 *    the user allowed (`--allowed-hosts`): a page on attacker.example whose
 *    name is re-pointed at 127.0.0.1 (DNS rebinding) sends Host:
 *    attacker.example. An IP literal is always served: no page can be served
 *    from the mock's own address but the mock's;
 *  - a path that is not one of the mock's real paths (`/v2/…`, the app routes,
 *    the control routes, /openapi.json): the handlers match any prefix
 *    (`*` + path) so that they work under any origin in-process, which over
 *    HTTP would serve `/foo/bar/v2/collections`.
 */
import { isIP } from 'node:net';
import { API_VERSION_SEGMENT, ENDPOINTS, MOCK_CONTROL_PATHS, OPENAPI_DOCUMENT_PATH } from '../base/contract.mts';

/** Reads `--allowed-hosts`: names separated by commas (lower-cased; a port is not part of a name). Throws naming the bad part. */
export function parseAllowedHosts(value: string): string[] {
	return value.split(',').map((part) => {
		const name = part.trim().toLowerCase();
		if (!/^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?$/.test(name)) throw new Error(`each allowed host must be a host name without a port, got "${part.trim()}"`);
		return name.replace(/\.$/, '');
	});
}

/** Whether a request with this URL's host name may be served. */
export function hostAllowed(hostname: string, allowed: readonly string[]): boolean {
	const name = hostname.toLowerCase().replace(/\.$/, '');
	if (isIP(name.replace(/^\[|\]$/g, '')) !== 0) return true;
	if (name === 'localhost' || name.endsWith('.localhost')) return true;
	return allowed.includes(name);
}

const SERVED = [
	...Object.values(ENDPOINTS).map(({ on, path }) => (on === 'api' ? `${API_VERSION_SEGMENT}${path}` : path)),
	...Object.values(MOCK_CONTROL_PATHS),
	OPENAPI_DOCUMENT_PATH,
].map((path) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z_]+/g, '[^/]+')}/?$`));

/** Whether the path is one of the mock's own (a path parameter is one segment). */
export function isServedPath(pathname: string): boolean {
	return SERVED.some((pattern) => pattern.test(pathname));
}

/** Loopback: the only `--host` at which no other machine can reach the mock. */
export function isLoopback(host: string): boolean {
	const name = host.toLowerCase().replace(/^\[|\]$/g, '');
	return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}
