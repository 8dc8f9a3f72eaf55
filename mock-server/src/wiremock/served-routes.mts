/**
 * What each WireMock admin route the mock serves answers (admin-routes.mts serves them): the README's table of
 * served routes is written from these (mock-server/scripts/readme-tables.mts, which fails when this list and the
 * routes registered differ). The routes WireMock has and the mock does not: not-served-routes.mts.
 */
import { MAX_UNMATCHED_NEAR_MISS_CALLS } from './journal-query.mts';
import { MAX_NEAR_MISSES } from './near-misses.mts';

interface Served {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** Under /__admin, parameters as `{name}`. */
	path: string;
	answers: string;
}

const EMPTIED_JOURNAL = '`{}`: the journal emptied (`GET /__mock/requests` reads it too)';
const NO_STUBS = '`{}`: every stub removed';

export const SERVED_ROUTES: readonly Served[] = [
	{ method: 'GET', path: '/health', answers: '`{"status": "healthy", "message", "version", "uptimeInSeconds", "timestamp"}` (what container health checks call)' },
	{ method: 'GET', path: '/version', answers: '`{"version"}`: the mock\'s' },
	{ method: 'GET', path: '/mappings', answers: '`{"mappings", "meta": {"total"}}`, in the order tried; `limit`, `offset`' },
	{ method: 'POST', path: '/mappings', answers: '201, the mapping with its `id` (and `uuid`)' },
	{ method: 'DELETE', path: '/mappings', answers: NO_STUBS },
	{ method: 'POST', path: '/mappings/reset', answers: `${NO_STUBS} (the mock has no mapping files to restore)` },
	{ method: 'GET', path: '/mappings/{id}', answers: 'the mapping; 404 for an unknown id' },
	{ method: 'PUT', path: '/mappings/{id}', answers: 'the mapping replaced; 404 for an unknown id' },
	{ method: 'DELETE', path: '/mappings/{id}', answers: '`{}`; 404 for an unknown id' },
	{ method: 'POST', path: '/reset', answers: '`{}`: stubs, scenarios and the journal emptied; not the data' },
	{
		method: 'GET', path: '/requests',
		answers: '`{"requests": [serve event], "meta": {"total"}}`, newest first; `wasMatched`: a stub answered; `limit`, `since` (ISO 8601)',
	},
	{ method: 'DELETE', path: '/requests', answers: EMPTIED_JOURNAL },
	{ method: 'POST', path: '/requests/reset', answers: EMPTIED_JOURNAL },
	{
		method: 'POST', path: '/requests/find',
		answers: '`{"requests": [logged request]}`: the calls a request pattern matches, oldest first',
	},
	{ method: 'POST', path: '/requests/count', answers: '`{"count"}` of the calls a request pattern matches' },
	{ method: 'POST', path: '/requests/remove', answers: 'the calls a request pattern matches, removed' },
	{ method: 'GET', path: '/requests/unmatched', answers: '`{"requests": [...]}`: the calls no stub answered' },
	{ method: 'GET', path: '/requests/unmatched/near-misses', answers: `the ${MAX_NEAR_MISSES} stubs nearest to each of the newest ${MAX_UNMATCHED_NEAR_MISS_CALLS} calls no stub answered` },
	{ method: 'POST', path: '/near-misses/request', answers: `the ${MAX_NEAR_MISSES} stubs nearest to a logged request (the body)` },
	{ method: 'POST', path: '/near-misses/request-pattern', answers: `the ${MAX_NEAR_MISSES} journaled calls nearest to a request pattern (the body)` },
	{ method: 'POST', path: '/requests/near-misses/request', answers: 'the same (where wiremock-rest-client posts it)' },
	{ method: 'POST', path: '/requests/near-misses/request-pattern', answers: 'the same (where wiremock-rest-client posts it)' },
	{ method: 'GET', path: '/requests/{id}', answers: 'one serve event; 404 for an unknown id' },
	{ method: 'DELETE', path: '/requests/{id}', answers: '`{}`; 404 for an unknown id' },
	{ method: 'GET', path: '/scenarios', answers: '`{"scenarios": [{"id", "name", "state", "possibleStates", "mappings"}]}`' },
	{ method: 'POST', path: '/scenarios/reset', answers: '`{}`: every scenario back in `Started`' },
	{ method: 'PUT', path: '/scenarios/{name}/state', answers: '`{}` for `{"state"}` (no body: `Started`); 404 for an unknown scenario, 400 for an unknown state' },
];
