/**
 * The lists a poll reads, one page at a time from any position, through the
 * shared page reader (pages/page-walk.ts) and the action node's endpoints:
 * signals (page/per_page), jobs of a source (string cursor), job search
 * (offset). A position is the query of the page to read. Each page is checked
 * before anything is taken from it (the contract, the list's check against the
 * query, created_at here): a malformed page fails the poll instead of reading
 * as "no items", which would move the position wrongly.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { jobSearch, jobsOfSource } from '../shared/api/jobs';
import { signals } from '../shared/api/signals';
import { LIMITS } from '../shared/contract';
import { explainNotFound, NOT_FOUND } from '../shared/explain';
import { unavailableFilterError } from '../shared/job-search';
import type { PagedAnswer } from '../shared/pages/list-kinds';
import { PageWalk, type PagedEndpoint } from '../shared/pages/page-walk';
import type { SourceRef } from '../shared/source-locator';
import type { ServiceContext } from '../shared/transport/request';
import type { Keyed, Position } from './position';

export interface Page {
	items: Keyed[];
	/** The next page's position; undefined after the last page. */
	next?: Position;
	/** Job pages: the service's metrics (count_jobs, updated_at). */
	metrics?: IDataObject;
}

/** One walk down a feed: pages read in order, none twice. */
export interface FeedReader {
	read(position: Position): Promise<Page>;
}

export interface Feed {
	/** How a position can be moved back (see `oneBefore`). */
	kind: 'page' | 'offset' | 'cursor';
	pageSize: number;
	/** What the poll state belongs to: the endpoint and its filters. */
	key: string;
	first: Position;
	/** The first page's query for "Fetch test event", which shows one item. */
	sample: Position;
	/** A new walk: its pages are read and checked by the shared page reader, which refuses a page the walk already read. */
	reader(context: ServiceContext): FeedReader;
}

const OPERATION = 'Job Signals (Polling) Trigger';

/** Signals per page: the rate limit counts requests, so every poll asks for the largest pages. */
export const SIGNALS_PAGE_SIZE = LIMITS.signalsMaxPerPage;

/** The trigger orders and remembers items by created_at, which the transport's contract check does not cover. */
async function keyed<N extends PagedAnswer>(walk: PageWalk<N>, page: string, items: IDataObject[], idField: string): Promise<Keyed[]> {
	const out: Keyed[] = [];
	for (const [index, item] of items.entries()) {
		const created = item.created_at;
		if (typeof created !== 'number' || !Number.isFinite(created)) {
			throw await walk.invalid(page, `item ${index} has no numeric created_at; nothing from this page was emitted and the trigger's position did not move`);
		}
		out.push({ id: String(item[idField]), created, item });
	}
	return out;
}

/** A failure said as the action node says it for the same list (explain.ts): what happened, what to do next. */
type Explain = (node: INode, error: unknown) => unknown;

function feed<N extends PagedAnswer>(pageSize: number, endpoint: PagedEndpoint<N>, idField: string, explain: Explain, sample: Position = endpoint.list.first): Feed {
	const { list } = endpoint;
	return {
		kind: list.kind,
		pageSize,
		key: JSON.stringify([endpoint.request.path, list.first]),
		first: list.first,
		sample,
		reader(context) {
			const walk = new PageWalk(context, endpoint);
			return {
				async read(position) {
					const page = await walk.read(position).catch(async (error: unknown) => await Promise.reject(explain(context.getNode(), error)));
					const items = await keyed(walk, list.describe(position), page.items, idField);
					return { items, next: page.next, metrics: 'metrics' in page.body ? { ...page.body.metrics } : undefined };
				},
			};
		},
	};
}

export const signalsFeed = (path: string, filters: IDataObject): Feed => {
	const endpoint = signals(OPERATION, path, filters, SIGNALS_PAGE_SIZE);
	const explain: Explain = (node, error) => explainNotFound(node, error, NOT_FOUND.signals);
	return feed(SIGNALS_PAGE_SIZE, endpoint, 'signal_id', explain, signals(OPERATION, path, filters, 1).list.first);
};

/** `source`: the company as the user gave it (`path` may be its registered domain's), for the error when the service tracks none. */
export const sourceJobsFeed = (path: string, source: SourceRef): Feed =>
	feed(LIMITS.cursorPageSize, jobsOfSource(OPERATION, path), 'job_id', (node, error) => explainNotFound(node, error, NOT_FOUND.source(source.by, [source.value])));

/** A filter the account's plan lacks fails the poll with Job → Search's error, which says which field to remove. */
export const jobSearchFeed = (filters: IDataObject): Feed =>
	feed(LIMITS.jobSearchPageSize, jobSearch(OPERATION, filters), 'job_id', (node, error) => unavailableFilterError(node, error, filters));

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
