/**
 * The API's three pagination kinds, one loop: signals use page/per_page,
 * job search a numeric offset, jobs of a source and sources of a collection a
 * string cursor. The loop stops as soon as `limit` items are in hand.
 *
 * Every page is checked (request.ts holds it to the contract; the pager checks
 * it against the query that asked for it), and a walk that reaches the end
 * compares what it collected with the total the service reported: a page lost
 * on the way fails the run instead of returning part of the data.
 */
import type { IDataObject } from 'n8n-workflow';
import { CURSOR_PARAMS } from '../contract';
import type { AnswerName } from './answers';
import { invalidAnswerError } from './errors';
import { redactText, secretsOf } from './redact';
import { serviceCredentials, serviceRequest, type ServiceContext, type ServiceRequest } from './request';

export interface Pager {
	/** The rule every page is held to (answers.ts). */
	answer: AnswerName;
	/** The first request's query. */
	first: IDataObject;
	/** The page a query asks for, as errors name it: "page 3", "offset 200", "cursor …". */
	describe(query: IDataObject): string;
	/** The items of one page. */
	items(body: IDataObject): IDataObject[];
	/** What is wrong with a page that fits the contract but not the query that asked for it. */
	problem?(body: IDataObject, query: IDataObject, items: IDataObject[]): string | undefined;
	/** The service's total for the whole walk from `first`, as this page reports it; undefined when no page can say (a walk started at a cursor). */
	total(body: IDataObject): number | undefined;
	/** The next page's query, or undefined after the last page. */
	next(body: IDataObject, query: IDataObject, items: IDataObject[]): IDataObject | undefined;
	/** The query after `query` as the walk's first page predicts it (its total and page size), before `query`'s own answer is in; absent where no page can predict the next (cursors). */
	ahead?(first: IDataObject, query: IDataObject): IDataObject | undefined;
	/** The service's totals as this page reports them (Include Totals). */
	totals(body: IDataObject): IDataObject;
	/** Where a query starts, as the node's Start At option takes it back: { page }, { offset } or { cursor }. */
	position(query: IDataObject): IDataObject;
	/** The query that starts after the first `taken` items of a page, where the pagination kind can name one (offsets only). */
	within?(query: IDataObject, taken: number): IDataObject;
}

/**
 * What a walk says besides its items: the first page's totals, and where a
 * next run would resume (absent at the end). A Limit that ends inside a page
 * a page number or cursor cannot point into names that page, and in
 * `returned` how many of its items this run already gave.
 */
export interface WalkSummary {
	totals: IDataObject;
	resume?: IDataObject;
}

export interface WalkOptions {
	limit?: number;
	/** Client-side filter: only kept items count towards the limit and are returned. */
	keep?: (item: IDataObject) => boolean;
}

/** A walk's items, and what its pages said besides them (the pages are fetched anyway: no extra call). */
export interface Walk {
	items: IDataObject[];
	/** Absent only if no page was read. */
	summary?: WalkSummary;
}

export type PagedRequest = Omit<ServiceRequest, 'qs' | 'answer' | 'page'>;

export async function collectPages(this: ServiceContext, request: PagedRequest, pager: Pager, { limit, keep }: WalkOptions = {}): Promise<Walk> {
	const secrets = secretsOf(await serviceCredentials(this));
	const fail = (page: string | undefined, problem: string) =>
		invalidAnswerError(this.getNode(), { ...request, answer: pager.answer, page: page && redactText(page, secrets) }, redactText(problem, secrets));
	const out: IDataObject[] = [];
	const totals: number[] = [];
	let seen = 0;
	let firstBody: IDataObject | undefined;
	const done = (resume?: IDataObject, returned?: number): Walk => {
		const at = resume && { ...pager.position(resume), ...(returned === undefined ? {} : { returned }) };
		return { items: out, summary: firstBody && { totals: pager.totals(firstBody), ...(at ? { resume: at } : {}) } };
	};
	const asked = new Set<string>();
	const fetchPage = (query: IDataObject, page: string): Promise<IDataObject> => {
		const body = serviceRequest.call(this, { ...request, answer: pager.answer, qs: query, page });
		// A page asked ahead may never be awaited (the walk failed or went elsewhere): its failure must not go unhandled.
		body.catch(() => undefined);
		return body;
	};
	/** The page asked for ahead of time: see the loop. */
	let ahead: { page: string; body: Promise<IDataObject> } | undefined;
	let query: IDataObject | undefined = pager.first;
	while (query) {
		const page = pager.describe(query);
		// A query asked twice (a cursor or page that comes back) would repeat items or never end.
		if (asked.has(page)) throw fail(page, `the service sent the walk back to ${page}, which it had already answered`);
		asked.add(page);
		const pending = ahead?.page === page ? ahead.body : fetchPage(query, page);
		// A walk that will read every page asks for the next one the first page predicts now, so the
		// service prepares it while this one is read and checked (two calls in flight, none extra
		// unless the service's total changes during the walk). A Limit may end inside this page: no asking ahead then.
		const predicted = limit === undefined && firstBody ? pager.ahead?.(firstBody, query) : undefined;
		ahead = predicted && { page: pager.describe(predicted), body: fetchPage(predicted, pager.describe(predicted)) };
		const body: IDataObject = await pending;
		const items = pager.items(body);
		const problem = pager.problem?.(body, query, items);
		if (problem) throw fail(page, problem);
		firstBody ??= body;
		const total = pager.total(body);
		if (total !== undefined) totals.push(total);
		seen += items.length;
		for (let i = 0; i < items.length; i++) {
			if (keep && !keep(items[i])) continue;
			out.push(items[i]);
			if (limit !== undefined && out.length >= limit) {
				if (i + 1 === items.length) return done(pager.next(body, query, items));
				// Cut inside the page: an offset names the item after the cut; a page or cursor only the page itself.
				const within = pager.within?.(query, i + 1);
				return within ? done(within) : done(query, i + 1);
			}
		}
		query = items.length === 0 ? undefined : pager.next(body, query, items);
	}
	const shortfall = totalProblem(seen, totals);
	if (shortfall) throw fail(undefined, shortfall);
	return done();
}

/**
 * A finished walk must hold as many items as the last page's total, give or
 * take how far the reported total moved during the walk (README, "Checking
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

const list = (body: IDataObject, field: string) => body[field] as IDataObject[];

/** Signals: ask for as many per page as the limit needs (at most maxPerPage), follow has_next; from page `startPage` on. */
export function pageNumberPager(perPage: number, filters: IDataObject, startPage = 1): Pager {
	const pagination = (body: IDataObject) => body.pagination as { page: number; per_page: number; has_next: boolean; count_signals: number };
	return {
		answer: 'signalsPage',
		first: { ...filters, page: startPage, per_page: perPage },
		describe: (query) => `page ${String(query.page)}`,
		items: (body) => list(body, 'signals'),
		problem: (body, query, items) => {
			const { page, per_page, has_next, count_signals } = pagination(body);
			if (page !== query.page) return `pagination.page is ${page}, but page ${String(query.page)} was asked for`;
			// The page's own numbers say how many signals it holds, whatever changed since the last page.
			const expected = Math.max(0, Math.min(per_page, count_signals - (page - 1) * per_page));
			if (items.length !== expected) return `the page holds ${items.length} signals, but page ${page} of ${count_signals} at ${per_page} per page holds ${expected}`;
			if (has_next !== page * per_page < count_signals) return `pagination.has_next is ${has_next} on page ${page} of ${count_signals} at ${per_page} per page`;
			return undefined;
		},
		// The pages before the start page are not part of the walk.
		total: (body) => Math.max(0, pagination(body).count_signals - (startPage - 1) * perPage),
		next: (body, query) => (pagination(body).has_next ? { ...query, page: Number(query.page) + 1 } : undefined),
		ahead: (first, query) => {
			const { per_page, count_signals } = pagination(first);
			return Number(query.page) * per_page < count_signals ? { ...query, page: Number(query.page) + 1 } : undefined;
		},
		totals: (body) => body.pagination as IDataObject,
		position: (query) => ({ page: query.page }),
	};
}

/** Job search: offset pages from `startOffset`; the total in metrics.count_jobs ends the walk without an extra empty call. */
export function offsetPager(filters: IDataObject, startOffset = 0): Pager {
	const total = (body: IDataObject) => (body.metrics as { count_jobs: number }).count_jobs;
	/** The service's page size, learnt from the first page. */
	let pageSize: number | undefined;
	return {
		answer: 'jobSearchPage',
		first: { ...filters, offset: startOffset },
		describe: (query) => `offset ${String(query.offset)}`,
		items: (body) => list(body, 'data'),
		problem: (body, query, items) => {
			const offset = Number(query.offset);
			if (pageSize === undefined) {
				pageSize = items.length;
				return items.length === 0 && total(body) > 0 ? `data is empty, but metrics.count_jobs is ${total(body)}` : undefined;
			}
			// Every page but the last is full; the last holds what the page's own total leaves.
			const expected = Math.max(0, Math.min(pageSize, total(body) - offset));
			if (items.length !== expected) return `data holds ${items.length} jobs, but offset ${offset} of ${total(body)} in pages of ${pageSize} holds ${expected}`;
			return undefined;
		},
		total: (body) => Math.max(0, total(body) - startOffset),
		next: (body, query, items) => {
			const offset = Number(query.offset) + items.length;
			return offset >= total(body) ? undefined : { ...query, offset };
		},
		ahead: (first, query) => {
			const offset = Number(query.offset) + (pageSize ?? 0);
			return pageSize && offset < total(first) ? { ...query, offset } : undefined;
		},
		totals: (body) => body.metrics as IDataObject,
		position: (query) => ({ offset: query.offset }),
		within: (query, taken) => ({ ...query, offset: Number(query.offset) + taken }),
	};
}

/** Cursor pages: the response's cursor field (absent on the final page) goes back as a query parameter of the same name; from `startCursor` when given. */
export function cursorPager(cursorName: (typeof CURSOR_PARAMS)[keyof typeof CURSOR_PARAMS], startCursor?: string): Pager {
	const jobs = cursorName === CURSOR_PARAMS.jobs;
	const totalName = jobs ? 'count_jobs' : 'count_sources';
	const cursorOf = (body: IDataObject) => (typeof body[cursorName] === 'string' && body[cursorName] !== '' ? (body[cursorName] as string) : undefined);
	/** The service's page size, learnt from the first page that has a next one. */
	let pageSize: number | undefined;
	return {
		answer: jobs ? 'jobsPage' : 'sourcesPage',
		first: startCursor === undefined ? {} : { [cursorName]: startCursor },
		describe: (query) => (query[cursorName] === undefined ? 'first page' : `${cursorName} ${String(query[cursorName])}`),
		items: (body) => list(body, 'data'),
		problem: (body, _query, items) => {
			if (cursorOf(body) === undefined) return undefined;
			pageSize ??= items.length;
			// A page followed by another is a full page; only the last may be short.
			return items.length === pageSize ? undefined : `data holds ${items.length} items and a ${cursorName} to a next page, but the pages before held ${pageSize}`;
		},
		// From a cursor, no page says how many items lie behind it.
		total: (body) => (startCursor === undefined ? (body.metrics as Record<string, number>)[totalName] : undefined),
		next: (body, query) => {
			const cursor = cursorOf(body);
			return cursor === undefined ? undefined : { ...query, [cursorName]: cursor };
		},
		totals: (body) => body.metrics as IDataObject,
		position: (query) => ({ cursor: query[cursorName] }),
	};
}
