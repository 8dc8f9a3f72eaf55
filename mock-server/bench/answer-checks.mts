/**
 * The answers `bench:mock-prism` loads, and what the contract says of each: status 200, JSON, the
 * envelope's zod schema, and as many items as the answer's own totals and the query call for. Checked
 * once per server before the load (a check per request would load the client, not the server); during
 * the load every answer must have the probed length.
 */
import type * as Contract from '../src/contract.mts';

type ContractModule = typeof Contract;

interface Schema {
	safeParse(value: unknown): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

export interface Endpoint {
	name: string;
	/** Path and query as the OpenAPI document has the operation, under the API's base URL. */
	path: string;
	schema(contract: ContractModule): Schema;
	/** The records the answer holds, and how many the contract calls for (undefined: any number); plus anything else amiss. */
	items(body: unknown, contract: ContractModule): { count: number; expected?: number; problems: string[] };
}

const SIGNALS_PER_PAGE = 1000;
const SEARCH_OFFSET = 100;

type Page = Record<string, unknown> & { pagination?: Record<string, unknown>; metrics?: Record<string, unknown> };
const list = (value: unknown) => (Array.isArray(value) ? value.length : 0);
const num = (value: unknown) => (typeof value === 'number' ? value : 0);

export const ENDPOINTS: Endpoint[] = [
	{
		name: '1,000-signal page',
		path: `/signals/problems?per_page=${SIGNALS_PER_PAGE}&direct_only=false&active_only=false`,
		schema: (c) => c.signalsEnvelopeSchema,
		items: (body) => {
			const page = body as Page;
			const perPage = page.pagination?.per_page;
			return {
				count: list(page.signals),
				// Page 1: the smaller of what was asked for and the total the answer states.
				expected: Math.min(SIGNALS_PER_PAGE, num(page.pagination?.count_signals)),
				problems: perPage === SIGNALS_PER_PAGE ? [] : [`per_page ${String(perPage)} (asked ${SIGNALS_PER_PAGE})`],
			};
		},
	},
	{
		name: 'job search',
		path: `/jobs?search=python%2Caws&locations=Europe&offset=${SEARCH_OFFSET}`,
		schema: (c) => c.jobSearchEnvelopeSchema,
		items: (body, c) => {
			const page = body as Page;
			// A page of jobSearchPageSize from the offset, up to the total the answer states.
			const left = num(page.metrics?.count_jobs) - SEARCH_OFFSET;
			return { count: list(page.data), expected: Math.max(0, Math.min(c.LIMITS.jobSearchPageSize, left)), problems: [] };
		},
	},
	{
		name: 'collections list',
		path: '/collections',
		schema: (c) => c.collectionsEnvelopeSchema,
		// No total in this answer: any number of collections is the contract's.
		items: (body) => ({ count: list((body as Page).data), problems: [] }),
	},
];

export interface Verdict {
	bytes: number;
	items: number;
	/** What is not as the contract says; empty when everything is. */
	problems: string[];
}

export function checkAnswer(endpoint: Endpoint, contract: ContractModule, status: number, text: string): Verdict {
	const bytes = Buffer.byteLength(text);
	if (status !== 200) return { bytes, items: 0, problems: [`HTTP ${status}`] };
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return { bytes, items: 0, problems: ['not JSON'] };
	}
	const problems: string[] = [];
	const parsed = endpoint.schema(contract).safeParse(body);
	if (!parsed.success) {
		const [first] = parsed.error.issues;
		problems.push(`${parsed.error.issues.length} schema error(s), first: ${first.path.map(String).join('.')}: ${first.message}`);
	}
	const items = endpoint.items(body, contract);
	if (items.expected !== undefined && items.count !== items.expected) problems.push(`${items.count} item(s) where its own total calls for ${items.expected}`);
	return { bytes, items: items.count, problems: [...problems, ...items.problems] };
}
