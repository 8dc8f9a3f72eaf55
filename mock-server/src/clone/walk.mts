/**
 * What the clone walk calls, in which order, and what each answer tells it: the account's collections
 * (one call), then every list at its largest page, so the walk makes the fewest calls:
 * - the sources of each collection: cursor pages of 100 (`cursor_source_id`; the API takes no page size);
 * - the account's jobs: job search without filters (all the account's jobs, the ones its own filters
 *   let through), offset pages of 100; fewer calls than the jobs of each source, which take one call
 *   a source even for a source with none;
 * - the signals of each group: `per_page=1000` (the most), `direct_only=false&active_only=false` (all).
 * The first page of each list of unknown length (jobs, each signal group) is fetched first, so the
 * page count, and the time left, are known after a few calls; the sources' pages are known from the
 * collections' `count_sources`. A Walk holds where each list is, not its records (those are in the
 * checkpoint, FILE.partial): its memory does not grow with the account. It is rebuilt from a
 * checkpoint by applying its pages again.
 */
import { z } from 'zod/v4';
import {
	collectionsEnvelopeSchema,
	CURSOR_PARAMS,
	jobSearchEnvelopeSchema,
	LIMITS,
	SIGNAL_GROUPS,
	signalsEnvelopeSchema,
	sourcesEnvelopeSchema,
} from '../base/contract.mts';

export type PageRequest =
	| { list: 'collections' }
	| { list: 'sources'; collection_id: string; cursor?: string }
	| { list: 'jobs'; offset: number }
	| { list: 'signals'; group: string; page: number };

/** An answer that is JSON but not the page asked for (the walk cannot go on from it): the walk stops, the checkpoint keeps what came before. */
export class PageError extends Error {}

/** Each page's endpoint as the contract names it, and the schema its whole answer must fit (the drift report's). */
export function pageContract(request: PageRequest): { endpoint: string; schema: z.ZodType } {
	switch (request.list) {
		case 'collections':
			return { endpoint: 'GET /collections', schema: collectionsEnvelopeSchema };
		case 'sources':
			return { endpoint: 'GET /collections/{collection_id}/sources', schema: sourcesEnvelopeSchema };
		case 'jobs':
			return { endpoint: 'GET /jobs', schema: jobSearchEnvelopeSchema };
		case 'signals':
			return { endpoint: 'GET /signals/{group}', schema: signalsEnvelopeSchema };
	}
}

// What the walk reads of a page to go on: its paging, and how many records it holds. A record that
// does not fit the contract does not stop the walk (the drift report names it; the file leaves it out).
const records = z.array(z.unknown());
const collectionsPage = z.object({ data: z.array(z.object({ collection_id: z.string().min(1), count_sources: z.number().int().nonnegative() })) });
const sourcesPage = sourcesEnvelopeSchema.extend({ data: records });
const jobsPage = jobSearchEnvelopeSchema.extend({ data: records });
const signalsPage = signalsEnvelopeSchema.extend({ signals: records });

interface List {
	name: string;
	kind: PageRequest['list'];
	/** The next page to fetch; undefined once the list is done. */
	next: PageRequest | undefined;
	pagesDone: number;
	/** Pages the list has in all: known from a count, else an estimate of 1. */
	pages: number;
	/** Whether `pages` comes from the API's count (the first page's, or the collection's count_sources). */
	counted: boolean;
	/** The API's latest count of the list's records, and how many the walk got from it. */
	expected?: number;
	got: number;
	/** The cursors already followed (a cursor list's, one per 100 sources): one sent again would loop the walk forever. */
	cursors: Set<string>;
}

export class Walk {
	pagesDone = 0;
	private lists: List[] = [];
	private collections = 0;
	private collectionsDone = false;

	/** The next page to fetch, or undefined when the walk is done. */
	next(): PageRequest | undefined {
		if (!this.collectionsDone) return { list: 'collections' };
		const uncounted = this.lists.find((l) => l.next !== undefined && !l.counted);
		return (uncounted ?? this.lists.find((l) => l.next !== undefined))?.next;
	}

	/** The next page as messages name it. */
	nextName(): string | undefined {
		const request = this.next();
		if (request === undefined) return undefined;
		return pageName(request, (this.lists.find((l) => l.next === request)?.pagesDone ?? 0) + 1);
	}

	/** Pages fetched and pages in all (`exact`: every list's length is known). */
	pages(): { done: number; total: number; exact: boolean } {
		const total = 1 + this.lists.reduce((sum, l) => sum + l.pages, 0);
		return { done: this.pagesDone, total, exact: this.collectionsDone && this.lists.every((l) => l.counted) };
	}

	/** Records listed so far (as listed: a record two pages repeat counts twice). */
	records(): { collections: number; sources: number; jobs: number; signals: number } {
		const got = (kind: PageRequest['list']) => this.lists.filter((l) => l.kind === kind).reduce((sum, l) => sum + l.got, 0);
		return { collections: this.collections, sources: got('sources'), jobs: got('jobs'), signals: got('signals') };
	}

	/** Lists whose count the API gave differs from the records the walk got from them (the account changed during the walk). */
	changedLists(): string[] {
		return this.lists.filter((l) => l.expected !== undefined && l.expected !== l.got).map((l) => `${l.name}: the API counted ${l.expected}, the walk got ${l.got}`);
	}

	/** Goes past the page `next()` names, with its answer. Throws PageError when the answer is not that page. */
	apply(body: unknown): void {
		const request = this.next();
		if (request === undefined) throw new Error('the walk is done');
		if (request.list === 'collections') this.applyCollections(body);
		else {
			const list = this.lists.find((l) => l.next === request) as List;
			if (request.list === 'sources') this.applySources(list, request, body);
			else if (request.list === 'jobs') this.applyJobs(list, request, body);
			else this.applySignals(list, request, body);
			list.pagesDone++;
			if (list.next !== undefined) list.pages = Math.max(list.pages, list.pagesDone + 1);
			else list.pages = list.pagesDone;
		}
		this.pagesDone++;
	}

	private applyCollections(body: unknown): void {
		const { data } = parsePage(collectionsPage, body, 'a collections answer');
		const ids = new Set<string>();
		for (const collection of data) {
			if (ids.has(collection.collection_id)) throw new PageError(`the collections answer lists "${collection.collection_id}" twice`);
			ids.add(collection.collection_id);
			const pages = Math.max(1, Math.ceil(collection.count_sources / LIMITS.cursorPageSize));
			this.lists.push(list(`sources of ${collection.collection_id}`, { list: 'sources', collection_id: collection.collection_id }, pages, true));
		}
		this.collections = data.length;
		this.lists.push(list('jobs', { list: 'jobs', offset: 0 }, 1, false));
		for (const group of SIGNAL_GROUPS) this.lists.push(list(`${group} signals`, { list: 'signals', group, page: 1 }, 1, false));
		this.collectionsDone = true;
	}

	private applySources(list: List, request: Extract<PageRequest, { list: 'sources' }>, body: unknown): void {
		const page = parsePage(sourcesPage, body, 'a page of sources');
		list.got += page.data.length;
		list.expected = page.metrics.count_sources;
		const cursor = page[CURSOR_PARAMS.sources];
		list.next = cursor === undefined ? undefined : { list: 'sources', collection_id: request.collection_id, cursor: followed(list, cursor) };
	}

	private applyJobs(list: List, request: Extract<PageRequest, { list: 'jobs' }>, body: unknown): void {
		const page = parsePage(jobsPage, body, 'a page of job search');
		list.got += page.data.length;
		const count = page.metrics.count_jobs;
		list.expected = count;
		const offset = request.offset + page.data.length;
		list.next = page.data.length === 0 || offset >= count ? undefined : { list: 'jobs', offset };
		if (!list.counted) {
			// The API's page size is the first page's length (a page is full while more follow).
			list.pages = list.next === undefined ? 1 : Math.ceil(count / page.data.length);
			list.counted = true;
		}
	}

	private applySignals(list: List, request: Extract<PageRequest, { list: 'signals' }>, body: unknown): void {
		const page = parsePage(signalsPage, body, `a page of ${request.group} signals`);
		list.got += page.signals.length;
		list.expected = page.pagination.count_signals;
		const more = page.signals.length > 0 && request.page < page.pagination.count_pages;
		list.next = more ? { list: 'signals', group: request.group, page: request.page + 1 } : undefined;
		list.pages = Math.max(1, page.pagination.count_pages);
		list.counted = true;
	}
}

/** After the collections' answer, the first page of each list the walk reads (the sources of the first collection only): what check-drift reads. */
export function firstPages(collectionsBody: unknown): PageRequest[] {
	const { data } = parsePage(collectionsPage, collectionsBody, 'a collections answer');
	return [
		...(data.length === 0 ? [] : [{ list: 'sources' as const, collection_id: data[0].collection_id }]),
		{ list: 'jobs', offset: 0 },
		...SIGNAL_GROUPS.map((group) => ({ list: 'signals' as const, group, page: 1 })),
	];
}

/** The path and query of a page under the API base URL. */
export function pagePath(request: PageRequest): string {
	switch (request.list) {
		case 'collections':
			return '/collections';
		case 'sources': {
			const path = `/collections/${encodeURIComponent(request.collection_id)}/sources`;
			return request.cursor === undefined ? path : `${path}?${CURSOR_PARAMS.sources}=${encodeURIComponent(request.cursor)}`;
		}
		case 'jobs':
			return `/jobs?offset=${request.offset}`;
		case 'signals':
			return `/signals/${encodeURIComponent(request.group)}?page=${request.page}&per_page=${LIMITS.signalsMaxPerPage}&direct_only=false&active_only=false`;
	}
}

/** "page 3 of the jobs (/jobs?offset=200)": a page as messages name it, with the number it has in its list. */
export function pageName(request: PageRequest, number: number): string {
	const list = request.list === 'collections' ? 'the collections' : request.list === 'sources' ? `the sources of ${request.collection_id}` : request.list === 'jobs' ? 'the jobs' : `the ${request.group} signals`;
	return `page ${number} of ${list} (${pagePath(request)})`;
}

function list(name: string, next: PageRequest, pages: number, counted: boolean): List {
	return { name, kind: next.list, next, pagesDone: 0, pages, counted, got: 0, cursors: new Set() };
}

function followed(list: List, cursor: string): string {
	if (list.cursors.has(cursor)) throw new PageError(`the ${list.name} answered a cursor it had sent before ("${cursor}"): the walk would never end`);
	list.cursors.add(cursor);
	return cursor;
}

function parsePage<T extends z.ZodType>(schema: T, body: unknown, what: string): z.infer<T> {
	const parsed = schema.safeParse(body);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	const where = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
	throw new PageError(`not ${what}: ${where === '' ? '' : `${where}: `}${issue.message}`);
}
