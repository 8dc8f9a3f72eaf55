/**
 * The lists a poll reads, one page at a time from any position, with the
 * action node's pagers: signals (page/per_page), jobs of a source (string
 * cursor), job search (offset). A position is the query of the page to read.
 * Each page is checked before anything is taken from it (the transport's
 * contract check, the pager's check against the query, created_at here): a
 * malformed page fails the poll instead of reading as "no items", which would
 * move the position wrongly.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { CURSOR_PARAMS, LIMITS } from '../shared/contract';
import { unavailableFilterError } from '../shared/job-search';
import { invalidAnswerError } from '../shared/transport/errors';
import { serviceRequest, type ServiceContext, type ServiceRequest } from '../shared/transport/request';
import { cursorPager, offsetPager, pageNumberPager, type Pager } from '../shared/transport/paginate';
import type { Keyed, Position } from './cursor';

export interface Page {
	items: Keyed[];
	/** The next page's position; undefined after the last page. */
	next?: Position;
	/** Job pages: the service's metrics (count_jobs, updated_at). */
	metrics?: IDataObject;
}

export interface Feed {
	/** How a position can be moved back (see `back`). */
	kind: 'page' | 'offset' | 'cursor';
	pageSize: number;
	/** What the poll state belongs to: the endpoint and its filters. */
	key: string;
	first: Position;
	/** The first page's query for "Fetch test event", which shows one item. */
	sample: Position;
	/** One page starting at `position`. */
	fetch(context: ServiceContext, position: Position): Promise<Page>;
	/** The error for a next page that points back to a page this walk already read (a cursor or page number that loops). */
	loop(context: ServiceContext, position: Position): Error;
}

/** Signals per page: the rate limit counts requests, so every poll asks for the largest pages. */
export const SIGNALS_PAGE_SIZE = LIMITS.signalsMaxPerPage;

/** The trigger orders and remembers items by created_at, which the transport's contract check does not cover. */
function keyed(node: INode, request: ServiceRequest, items: IDataObject[], idField: string): Keyed[] {
	return items.map((item, index) => {
		const created = item.created_at;
		if (typeof created !== 'number' || !Number.isFinite(created)) {
			throw invalidAnswerError(node, request, `item ${index} has no numeric created_at; nothing from this page was emitted and the trigger's position did not move`);
		}
		return { id: String(item[idField]), created, item };
	});
}

function feed(kind: Feed['kind'], pageSize: number, path: string, pager: Pager, idField: string, sample = pager.first): Feed {
	const requestFor = (position: Position): ServiceRequest => ({
		method: 'GET',
		on: 'api',
		path,
		qs: position,
		idempotent: true,
		answer: pager.answer,
		operation: 'Job Signals (Polling) Trigger',
		page: pager.describe(position),
	});
	return {
		kind,
		pageSize,
		key: JSON.stringify([path, pager.first]),
		first: pager.first,
		sample,
		async fetch(context, position) {
			const request = requestFor(position);
			// The transport holds the page to the contract; the pager checks it against the query.
			const body = await serviceRequest.call(context, request);
			const raw = pager.items(body);
			const problem = pager.problem?.(body, position, raw);
			if (problem) throw invalidAnswerError(context.getNode(), request, problem);
			const items = keyed(context.getNode(), request, raw, idField);
			return { items, next: raw.length === 0 ? undefined : pager.next(body, position, raw), metrics: body.metrics as IDataObject | undefined };
		},
		loop: (context, position) =>
			invalidAnswerError(context.getNode(), requestFor(position), `the service sent the walk back to ${pager.describe(position)}, which it had already answered`),
	};
}

export const signalsFeed = (path: string, filters: IDataObject): Feed =>
	feed('page', SIGNALS_PAGE_SIZE, path, pageNumberPager(SIGNALS_PAGE_SIZE, filters), 'signal_id', pageNumberPager(1, filters).first);

export const sourceJobsFeed = (path: string): Feed =>
	feed('cursor', LIMITS.cursorPageSize, path, cursorPager(CURSOR_PARAMS.jobs), 'job_id');

export function jobSearchFeed(path: string, filters: IDataObject): Feed {
	const search = feed('offset', LIMITS.jobSearchPageSize, path, offsetPager(filters), 'job_id');
	// A filter the account's plan lacks fails the poll with Job → Search's error, which says which field to remove.
	return {
		...search,
		fetch: async (context, position) =>
			await search.fetch(context, position).catch(async (error: unknown) => await Promise.reject(unavailableFilterError(context.getNode(), error, filters))),
	};
}

/**
 * The position one item before `position` (offset and page kinds), and how many
 * leading items of that page to drop: a resumed walk re-reads the last item an
 * earlier poll handled, to see whether the list moved up under the stored position.
 * Undefined when the position is the top of the list or a cursor (cursors are tied to an item, not a place).
 */
export function oneBefore(feed: Feed, position: Position, stepBack = 0): { position: Position; drop: number } | undefined {
	if (feed.kind === 'offset') {
		const offset = Number(position.offset) - 1 - stepBack * feed.pageSize;
		return offset < 0 ? undefined : { position: { ...position, offset }, drop: 0 };
	}
	if (feed.kind === 'page') {
		const page = Number(position.page) - 1 - stepBack;
		return page < 1 ? undefined : { position: { ...position, page }, drop: stepBack > 0 ? 0 : feed.pageSize - 1 };
	}
	return undefined;
}
