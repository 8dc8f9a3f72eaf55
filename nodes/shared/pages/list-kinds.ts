/**
 * The API's three kinds of paged list, as stateless descriptions: signals by
 * page/per_page, job search by numeric offset, jobs of a source and sources of
 * a collection by a string cursor. What a walk learns on the way (the service's
 * page size) comes from its first page, which the walk hands in (page-reader.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { CURSOR_PARAMS } from '../contract';
import type { AnswerTypes } from '../transport/answers';

export type PagedAnswer = 'signalsPage' | 'jobSearchPage' | 'jobsPage' | 'sourcesPage';
export type PageBody<N extends PagedAnswer> = AnswerTypes[N];
/** The query of one page; also a poll position. */
export type PageQuery = IDataObject;

/** The first page a walk read: the later pages are held to its size. */
export interface FirstPage<N extends PagedAnswer> {
	body: PageBody<N>;
	size: number;
}

export interface PagedList<N extends PagedAnswer> {
	/** How a position can be moved back (the Poll Trigger's resume: see its feeds.ts). */
	kind: 'page' | 'offset' | 'cursor';
	/** The first request's query. */
	first: PageQuery;
	/** The page a query asks for, as errors name it: "page 3", "offset 200", "cursor …". */
	describe(query: PageQuery): string;
	/** The records of one page. */
	items(body: PageBody<N>): IDataObject[];
	/** What is wrong with a page that fits the contract but not the query that asked for it, or the walk's first page. */
	problem?(body: PageBody<N>, query: PageQuery, items: IDataObject[], first: FirstPage<N> | undefined): string | undefined;
	/** The service's total for the whole walk from `first`, as this page reports it; undefined when no page can say (a walk started at a cursor). */
	total(body: PageBody<N>): number | undefined;
	/** The next page's query, or undefined after the last page. */
	next(body: PageBody<N>, query: PageQuery, items: IDataObject[]): PageQuery | undefined;
	/** The query after `query` as the walk's first page predicts it (its total and page size), before `query`'s own answer is in; absent where no page can predict the next (cursors). */
	ahead?(first: FirstPage<N>, query: PageQuery): PageQuery | undefined;
	/** The service's totals as this page reports them (Include Totals). */
	totals(body: PageBody<N>): IDataObject;
	/** Where a query starts, as the action node's Start At option takes it back: { page }, { offset } or { cursor }. */
	position(query: PageQuery): IDataObject;
	/** The query that starts after the first `taken` items of a page, where the kind can name one (offsets only). */
	within?(query: PageQuery, taken: number): PageQuery;
}

/** Signals: `perPage` a page, following has_next, from page `startPage` on. */
export function pageNumberList(perPage: number, filters: IDataObject, startPage = 1): PagedList<'signalsPage'> {
	return {
		kind: 'page',
		first: { ...filters, page: startPage, per_page: perPage },
		describe: (query) => `page ${String(query.page)}`,
		items: (body) => body.signals,
		problem: ({ pagination, signals }, query) => {
			const { page, per_page, has_next, count_signals } = pagination;
			if (page !== query.page) return `pagination.page is ${page}, but page ${String(query.page)} was asked for`;
			// The page's own numbers say how many signals it holds, whatever changed since the last page.
			const expected = Math.max(0, Math.min(per_page, count_signals - (page - 1) * per_page));
			if (signals.length !== expected) return `the page holds ${signals.length} signals, but page ${page} of ${count_signals} at ${per_page} per page holds ${expected}`;
			if (has_next !== page * per_page < count_signals) return `pagination.has_next is ${has_next} on page ${page} of ${count_signals} at ${per_page} per page`;
			return undefined;
		},
		// The pages before the start page are not part of the walk.
		total: ({ pagination }) => Math.max(0, pagination.count_signals - (startPage - 1) * perPage),
		next: ({ pagination }, query) => (pagination.has_next ? { ...query, page: Number(query.page) + 1 } : undefined),
		ahead: ({ body }, query) => {
			const { per_page, count_signals } = body.pagination;
			return Number(query.page) * per_page < count_signals ? { ...query, page: Number(query.page) + 1 } : undefined;
		},
		totals: ({ pagination }) => ({ ...pagination }),
		position: (query) => ({ page: query.page }),
	};
}

/** Job search: offset pages from `startOffset`; the total in metrics.count_jobs ends the walk without an extra empty call. */
export function offsetList(filters: IDataObject, startOffset = 0): PagedList<'jobSearchPage'> {
	return {
		kind: 'offset',
		first: { ...filters, offset: startOffset },
		describe: (query) => `offset ${String(query.offset)}`,
		items: (body) => body.data,
		problem: ({ data, metrics }, query, _items, first) => {
			const total = metrics.count_jobs;
			if (first === undefined) return data.length === 0 && total > 0 ? `data is empty, but metrics.count_jobs is ${total}` : undefined;
			// Every page but the last is full (the first page's size); the last holds what the page's own total leaves.
			const offset = Number(query.offset);
			const expected = Math.max(0, Math.min(first.size, total - offset));
			if (data.length !== expected) return `data holds ${data.length} jobs, but offset ${offset} of ${total} in pages of ${first.size} holds ${expected}`;
			return undefined;
		},
		total: ({ metrics }) => Math.max(0, metrics.count_jobs - startOffset),
		next: ({ metrics }, query, items) => {
			const offset = Number(query.offset) + items.length;
			return offset >= metrics.count_jobs ? undefined : { ...query, offset };
		},
		ahead: (first, query) => {
			const offset = Number(query.offset) + first.size;
			return first.size > 0 && offset < first.body.metrics.count_jobs ? { ...query, offset } : undefined;
		},
		totals: ({ metrics }) => ({ ...metrics }),
		position: (query) => ({ offset: query.offset }),
		within: (query, taken) => ({ ...query, offset: Number(query.offset) + taken }),
	};
}

type CursorAnswer = 'jobsPage' | 'sourcesPage';
type CursorName = (typeof CURSOR_PARAMS)[keyof typeof CURSOR_PARAMS];

/** Cursor pages: the answer's cursor field (absent on the final page) goes back as a query parameter of the same name; from `startCursor` when given. */
function cursorList<N extends CursorAnswer>(
	cursorName: CursorName,
	read: { cursor: (body: PageBody<N>) => string | undefined; count: (body: PageBody<N>) => number },
	startCursor?: string,
): PagedList<N> {
	// An empty cursor ends the list like an absent one.
	const cursorOf = (body: PageBody<N>) => read.cursor(body) || undefined;
	return {
		kind: 'cursor',
		first: startCursor === undefined ? {} : { [cursorName]: startCursor },
		describe: (query) => (query[cursorName] === undefined ? 'first page' : `${cursorName} ${String(query[cursorName])}`),
		items: (body) => body.data,
		problem: (body, _query, items, first) => {
			// A page followed by another is a full page (the size of the walk's first such page); only the last may be short.
			if (cursorOf(body) === undefined || first === undefined || cursorOf(first.body) === undefined) return undefined;
			return items.length === first.size ? undefined : `data holds ${items.length} items and a ${cursorName} to a next page, but the pages before held ${first.size}`;
		},
		// From a cursor, no page says how many items lie behind it.
		total: (body) => (startCursor === undefined ? read.count(body) : undefined),
		next: (body, query) => {
			const cursor = cursorOf(body);
			return cursor === undefined ? undefined : { ...query, [cursorName]: cursor };
		},
		totals: (body) => ({ ...body.metrics }),
		position: (query) => ({ cursor: query[cursorName] }),
	};
}

export const jobsCursorList = (startCursor?: string): PagedList<'jobsPage'> =>
	cursorList<'jobsPage'>(CURSOR_PARAMS.jobs, { cursor: (body) => body.cursor_job_id, count: (body) => body.metrics.count_jobs }, startCursor);

export const sourcesCursorList = (startCursor?: string): PagedList<'sourcesPage'> =>
	cursorList<'sourcesPage'>(CURSOR_PARAMS.sources, { cursor: (body) => body.cursor_source_id, count: (body) => body.metrics.count_sources }, startCursor);
