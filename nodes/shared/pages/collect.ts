/**
 * Return All and Limit: a walk from the list's first query to its end, or until
 * `limit` items are in hand. A walk that reaches the end compares what it
 * collected with the total the service reported: a page lost on the way fails
 * the run instead of returning part of the data.
 */
import type { IDataObject } from 'n8n-workflow';
import type { ServiceContext } from '../transport/request';
import type { PageQuery } from './list-kinds';
import { PageReader, type PagedEndpointName, type PagedRequest } from './page-reader';

/**
 * What a walk says besides its items: the first page's totals, and where a
 * next run would resume (absent at the end). A Limit that ends inside a page
 * a page number or cursor cannot point into names that page, and in
 * `returned` how many of its items this run already gave.
 */
export interface CollectSummary {
	totals: IDataObject;
	resume?: IDataObject;
}

export interface CollectOptions {
	limit?: number;
	/** Client-side filter: only kept items count towards the limit and are returned. */
	keep?: (item: IDataObject) => boolean;
}

/** A walk's items, and what its pages said besides them (the pages are fetched anyway: no extra call). */
export interface Collected {
	items: IDataObject[];
	/** Absent only if no page was read. */
	summary?: CollectSummary;
}

/**
 * How many pages a Return All asks for beyond the one it reads: the service prepares them while the node parses and
 * checks the current one (docs/benchmarks.md, "The action node: `npm run bench:node`": the 20-page signals walk against HTTP Request).
 */
const PAGES_AHEAD = 2;

export async function collectPages<E extends PagedEndpointName>(context: ServiceContext, endpoint: PagedRequest<E>, { limit, keep }: CollectOptions = {}): Promise<Collected> {
	const reader = new PageReader(context, endpoint);
	const { list } = reader;
	const out: IDataObject[] = [];
	const totals: number[] = [];
	let seen = 0;
	const done = (resume?: PageQuery, returned?: number): Collected => {
		const at = resume && { ...list.position(resume), ...(returned === undefined ? {} : { returned }) };
		const first = reader.first;
		return { items: out, summary: first && { totals: list.totals(first.body), ...(at ? { resume: at } : {}) } };
	};
	/** The pages asked for ahead of time, by name: see the loop. */
	let ahead = new Map<string, ReturnType<typeof reader.fetch>>();
	let query: PageQuery | undefined = list.first;
	while (query) {
		const current = reader.read(query, ahead.get(list.describe(query)));
		// A walk that will read every page asks now for the next PAGES_AHEAD pages the first page predicts, so the
		// service prepares them while this one is read and checked (no call extra unless the service's total changes
		// during the walk; a page asked that the walk no longer predicts is dropped unread). A Limit may end inside
		// this page: no asking ahead then.
		const first = limit === undefined ? reader.first : undefined;
		const predicted = new Map<string, ReturnType<typeof reader.fetch>>();
		for (let next = first && list.ahead?.(first, query); first && next && predicted.size < PAGES_AHEAD; next = list.ahead?.(first, next)) {
			const name = list.describe(next);
			predicted.set(name, ahead.get(name) ?? reader.fetch(next));
		}
		ahead = predicted;
		const page = await current;
		const total = list.total(page.body);
		if (total !== undefined) totals.push(total);
		seen += page.items.length;
		for (let i = 0; i < page.items.length; i++) {
			if (keep && !keep(page.items[i])) continue;
			out.push(page.items[i]);
			if (limit !== undefined && out.length >= limit) {
				if (i + 1 === page.items.length) return done(page.next);
				// Cut inside the page: an offset names the item after the cut; a page or cursor only the page itself.
				const within = list.within?.(query, i + 1);
				return within ? done(within) : done(query, i + 1);
			}
		}
		query = page.next;
	}
	const shortfall = totalProblem(seen, totals);
	if (shortfall) throw await reader.invalid(undefined, shortfall);
	return done();
}

/**
 * A finished walk must hold as many items as the last page's total, give or
 * take how far the reported total moved during the walk (docs, "Checking
 * answers": records added or removed meanwhile shift page boundaries by at
 * most that many). With a total that never moved, the count must be exact.
 */
function totalProblem(collected: number, totals: number[]): string | undefined {
	if (totals.length === 0) return undefined;
	const reported = totals[totals.length - 1];
	let moved = 0;
	for (let i = 1; i < totals.length; i++) moved += Math.abs(totals[i] - totals[i - 1]);
	if (Math.abs(collected - reported) <= moved) return undefined;
	const count = (n: number) => n.toLocaleString('en-US');
	return (
		`the walk collected ${count(collected)} items in ${totals.length} pages, but the service reported a total of ${count(reported)}` +
		(moved === 0 ? ', and that total did not change during the walk' : `; the total moved by only ${count(moved)} during the walk`)
	);
}
