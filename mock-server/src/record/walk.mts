/**
 * What the recorder calls, in which order, and what each answer adds: the account's collections
 * (one call), then every list at its largest page, so the walk makes the fewest calls:
 * - the sources of each collection: cursor pages of 100 (`cursor_source_id`; the API takes no page size);
 * - the account's jobs: job search without filters (all the account's jobs, the ones its own filters
 *   let through), offset pages of 100; fewer calls than the jobs of each source, which take one call
 *   a source even for a source with none;
 * - the signals of each group: `per_page=1000` (the most), `direct_only=false&active_only=false` (all).
 * The first page of each list of unknown length (jobs, each signal group) is fetched first, so the
 * page count, and the time left, are known after a few calls; the sources' pages are known from the
 * collections' `count_sources`. A Walk is rebuilt from a checkpoint by applying its pages again.
 */
import { CURSOR_PARAMS, LIMITS } from '../../../contract/api';
import { SIGNAL_GROUPS } from '../../../contract/hierarchy';
import {
	collectionsEnvelopeSchema, jobSearchEnvelopeSchema, signalsEnvelopeSchema, sourcesEnvelopeSchema,
	type Collection, type Job, type Signal, type Source,
} from '../../../contract/schemas';
import type { z } from 'zod/v4';

export type PageRequest =
	| { list: 'collections' }
	| { list: 'sources'; collection_id: string; cursor?: string }
	| { list: 'jobs'; offset: number }
	| { list: 'signals'; group: string; page: number };

/** An answer that is JSON but not the page asked for: the walk stops, the checkpoint keeps what came before. */
export class PageError extends Error {}

interface List {
	name: string;
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
	/** Cursors already followed: a cursor sent again would loop the walk forever. */
	cursors: Set<string>;
}

export class Walk {
	collections: { collection: Collection; source_ids: string[] }[] = [];
	readonly sources = new Map<string, Source>();
	readonly jobs = new Map<string, Job>();
	readonly signals = new Map<string, Signal>();
	/** Fields of records the contract does not know (`jobs.salary`): left out, as the data file takes contract records only. */
	readonly droppedFields = new Set<string>();
	pagesDone = 0;
	private lists: List[] = [];
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

	records(): { collections: number; sources: number; jobs: number; signals: number } {
		return { collections: this.collections.length, sources: this.sources.size, jobs: this.jobs.size, signals: this.signals.size };
	}

	/** Lists whose count the API gave differs from the records the walk got from them (the account changed during the walk). */
	changedLists(): string[] {
		return this.lists.filter((l) => l.expected !== undefined && l.expected !== l.got).map((l) => `${l.name}: the API counted ${l.expected}, the walk got ${l.got}`);
	}

	/** Adds the answer to the page `next()` names. Throws PageError when the answer is not that page. */
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
		const { data } = parsePage(collectionsEnvelopeSchema, body, 'a collections answer');
		this.noteDropped('collections', (body as { data: unknown[] }).data, data);
		const ids = new Set<string>();
		for (const collection of data) {
			if (ids.has(collection.collection_id)) throw new PageError(`the collections answer lists "${collection.collection_id}" twice`);
			ids.add(collection.collection_id);
			this.collections.push({ collection, source_ids: [] });
			const pages = Math.max(1, Math.ceil(collection.count_sources / LIMITS.cursorPageSize));
			this.lists.push(list(`sources of ${collection.collection_id}`, { list: 'sources', collection_id: collection.collection_id }, pages, true));
		}
		this.lists.push(list('jobs', { list: 'jobs', offset: 0 }, 1, false));
		for (const group of SIGNAL_GROUPS) this.lists.push(list(`${group} signals`, { list: 'signals', group, page: 1 }, 1, false));
		this.collectionsDone = true;
	}

	private applySources(list: List, request: Extract<PageRequest, { list: 'sources' }>, body: unknown): void {
		const page = parsePage(sourcesEnvelopeSchema, body, `a page of sources`);
		this.noteDropped('sources', (body as { data: unknown[] }).data, page.data);
		const held = this.collections.find((c) => c.collection.collection_id === request.collection_id) as (typeof this.collections)[number];
		for (const source of page.data) {
			this.sources.set(source.source_id, source);
			if (!held.source_ids.includes(source.source_id)) held.source_ids.push(source.source_id);
		}
		list.got += page.data.length;
		list.expected = page.metrics.count_sources;
		const cursor = page[CURSOR_PARAMS.sources];
		list.next = cursor === undefined ? undefined : { list: 'sources', collection_id: request.collection_id, cursor: followed(list, cursor) };
	}

	private applyJobs(list: List, request: Extract<PageRequest, { list: 'jobs' }>, body: unknown): void {
		const page = parsePage(jobSearchEnvelopeSchema, body, 'a page of job search');
		this.noteDropped('jobs', (body as { data: unknown[] }).data, page.data);
		for (const job of page.data) this.jobs.set(job.job_id, job);
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
		const page = parsePage(signalsEnvelopeSchema, body, `a page of ${request.group} signals`);
		this.noteDropped('signals', (body as { signals: unknown[] }).signals, page.signals);
		for (const signal of page.signals) this.signals.set(signal.signal_id, signal);
		list.got += page.signals.length;
		list.expected = page.pagination.count_signals;
		const more = page.signals.length > 0 && request.page < page.pagination.count_pages;
		list.next = more ? { list: 'signals', group: request.group, page: request.page + 1 } : undefined;
		list.pages = Math.max(1, page.pagination.count_pages);
		list.counted = true;
	}

	private noteDropped(kind: string, raw: unknown[], parsed: object[]): void {
		raw.forEach((record, i) => {
			for (const field of Object.keys(record as object)) if (!(field in parsed[i])) this.droppedFields.add(`${kind}.${field}`);
		});
	}
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
function pageName(request: PageRequest, number: number): string {
	const list = request.list === 'collections' ? 'the collections' : request.list === 'sources' ? `the sources of ${request.collection_id}` : request.list === 'jobs' ? 'the jobs' : `the ${request.group} signals`;
	return `page ${number} of ${list} (${pagePath(request)})`;
}

function list(name: string, next: PageRequest, pages: number, counted: boolean): List {
	return { name, next, pagesDone: 0, pages, counted, got: 0, cursors: new Set() };
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
