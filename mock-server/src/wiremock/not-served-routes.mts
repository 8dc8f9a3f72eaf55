/**
 * WireMock's own admin routes (the routes of its admin API, by method and path) that this mock does not serve, each
 * with why: a call to one is a 404 that says it is WireMock's and not served (README, "WireMock admin API (stubs and
 * verification)"); a call to any other /__admin route the mock does not serve is a 404 that says it is unknown.
 */

interface NotServed {
	method: string;
	/** Under /__admin; a trailing `/**` is any path below. */
	path: string;
	why: string;
}

const MEMORY_ONLY = 'stubs live in memory only (a test\'s own; POST /__mock/reset removes them)';
const NOT_NEEDED = 'not needed to stub and verify';
const RECORDING = 'record and playback: the mock is the service, it proxies nothing';

export const NOT_SERVED_ROUTES: readonly NotServed[] = [
	{ method: 'GET', path: '', why: "WireMock's admin index; the mock's own page is GET /__mock/ui" },
	{ method: 'GET', path: '/', why: "WireMock's admin index; the mock's own page is GET /__mock/ui" },
	{ method: 'POST', path: '/mappings/new', why: "WireMock's deprecated form: use POST /__admin/mappings" },
	{ method: 'POST', path: '/mappings/remove', why: "WireMock's deprecated form: use DELETE /__admin/mappings/{id}" },
	{ method: 'POST', path: '/mappings/edit', why: "WireMock's deprecated form: use PUT /__admin/mappings/{id}" },
	{ method: 'POST', path: '/mappings/save', why: MEMORY_ONLY },
	{ method: 'POST', path: '/mappings/import', why: MEMORY_ONLY },
	{ method: 'POST', path: '/mappings/find-by-metadata', why: NOT_NEEDED },
	{ method: 'POST', path: '/mappings/remove-by-metadata', why: NOT_NEEDED },
	{ method: 'GET', path: '/mappings/unmatched', why: NOT_NEEDED },
	{ method: 'DELETE', path: '/mappings/unmatched', why: NOT_NEEDED },
	{ method: 'GET', path: '/files', why: MEMORY_ONLY },
	{ method: 'PUT', path: '/files/**', why: MEMORY_ONLY },
	{ method: 'DELETE', path: '/files/**', why: MEMORY_ONLY },
	{ method: 'POST', path: '/requests/remove-by-metadata', why: NOT_NEEDED },
	{ method: 'POST', path: '/recordings/snapshot', why: RECORDING },
	{ method: 'POST', path: '/recordings/start', why: RECORDING },
	{ method: 'POST', path: '/recordings/stop', why: RECORDING },
	{ method: 'GET', path: '/recordings/status', why: RECORDING },
	{ method: 'GET', path: '/recorder', why: RECORDING },
	{ method: 'GET', path: '/settings', why: 'no global settings: a stub\'s fixedDelayMilliseconds, or a fault rule\'s latency_ms (PUT /__mock/faults)' },
	{ method: 'PUT', path: '/settings', why: 'no global settings: a stub\'s fixedDelayMilliseconds, or a fault rule\'s latency_ms (PUT /__mock/faults)' },
	{ method: 'POST', path: '/settings', why: 'no global settings: a stub\'s fixedDelayMilliseconds, or a fault rule\'s latency_ms (PUT /__mock/faults)' },
	{ method: 'PATCH', path: '/settings/extended', why: 'no global settings' },
	{ method: 'POST', path: '/shutdown', why: 'the mock stops on SIGTERM' },
	{ method: 'GET', path: '/docs', why: "the mock's own document of its control routes is GET /__mock/openapi.json" },
	{ method: 'GET', path: '/docs/swagger', why: "the mock's own document of its control routes is GET /__mock/openapi.json" },
	{ method: 'GET', path: '/certs/wiremock-ca.crt', why: 'no HTTPS proxying' },
];

/** Why the mock does not serve this WireMock route (`path` under /__admin); undefined when it is none of WireMock's. */
export function notServedWhy(method: string, path: string): string | undefined {
	return NOT_SERVED_ROUTES.find((route) => route.method === method && (route.path.endsWith('/**') ? path.startsWith(route.path.slice(0, -2)) : route.path === path))?.why;
}
