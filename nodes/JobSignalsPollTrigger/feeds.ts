/**
 * The lists a poll reads, one page at a time from any position, through the
 * shared page reader (shared/pages/page-reader.ts) and the action node's endpoints:
 * signals (page/per_page), jobs of a source (string cursor), job search
 * (offset). A position is the query of the page to read. Each page is checked
 * before anything is taken from it (the contract, the list's check against the
 * query, created_at here): a malformed page fails the poll instead of reading
 * as "no items", which would move the position wrongly.
 */
import { NodeApiError, type IDataObject, type INode, type IPollFunctions } from 'n8n-workflow';
import { ENDPOINTS, LIMITS } from '../shared/contract';
import { searchQuery, unavailableFilterError } from '../shared/job-search';
import { jobsCursorList, offsetList, pageNumberList, type PageQuery } from '../shared/pages/list-kinds';
import { PageReader, type PagedEndpointName, type PagedRequest } from '../shared/pages/page-reader';
import { readSignalSelection, type SignalsTarget } from '../shared/signal-filters';
import { domainCandidates, forSourceRef, sourceRefFrom, sourceTarget, type SourceRef, type SourceTarget } from '../shared/source-locator';
import { pathOf } from '../shared/transport/answers';
import { explained, notFoundStep } from '../shared/transport/errors';
import type { ServiceContext } from '../shared/transport/request';
import type { Keyed } from './position';
import type { PollEvent } from './properties';

export interface FeedPage {
	items: Keyed[];
	/** The next page's position; undefined after the last page. */
	next?: PageQuery;
	/** Job pages: the service's metrics (count_jobs, updated_at). */
	metrics?: IDataObject;
}

/** One walk down a feed: pages read in order, none twice. */
export interface FeedReader {
	read(position: PageQuery): Promise<FeedPage>;
}

export interface Feed {
	/** How a position can be moved back (see `oneBefore`). */
	kind: 'page' | 'offset' | 'cursor';
	pageSize: number;
	/** What the poll state belongs to: the endpoint and its filters. */
	key: string;
	first: PageQuery;
	/** The first page's query for "Fetch test event", which shows one item. */
	sample: PageQuery;
	/** A new walk: its pages are read and checked by the shared page reader, which refuses a page the walk already read. */
	reader(context: ServiceContext): FeedReader;
}

const OPERATION = 'Job Signals (Polling) Trigger';

/** Signals per page: the rate limit counts requests, so every poll asks for the largest pages. */
export const SIGNALS_PAGE_SIZE = LIMITS.signalsMaxPerPage;

/** The trigger orders and remembers items by created_at, which the transport's contract check does not cover. */
async function keyed<E extends PagedEndpointName>(reader: PageReader<E>, page: string, items: IDataObject[], idField: string): Promise<Keyed[]> {
	const out: Keyed[] = [];
	for (const [index, item] of items.entries()) {
		const created = item.created_at;
		if (typeof created !== 'number' || !Number.isFinite(created)) {
			throw await reader.invalid(page, `item ${index} has no numeric created_at; nothing from this page was emitted and the trigger's position did not move`);
		}
		out.push({ id: String(item[idField]), created, item });
	}
	return out;
}

/** A failure said as the action node says it for the same list: what happened, what to do next (the transport already explains a 404). */
type Explain = (node: INode, error: unknown) => unknown;
const asItCame: Explain = (_node, error) => error;

function feed<E extends PagedEndpointName>(pageSize: number, endpoint: PagedRequest<E>, idField: string, explain: Explain, sample: PageQuery = endpoint.list.first): Feed {
	const { list } = endpoint;
	return {
		kind: list.kind,
		pageSize,
		key: JSON.stringify([pathOf(endpoint.request), list.first]),
		first: list.first,
		sample,
		reader(context) {
			const reader = new PageReader(context, endpoint);
			return {
				async read(position) {
					const page = await reader.read(position).catch(async (error: unknown) => await Promise.reject(explain(context.getNode(), error)));
					const items = await keyed(reader, list.describe(position), page.items, idField);
					return { items, next: page.next, metrics: 'metrics' in page.body ? { ...page.body.metrics } : undefined };
				},
			};
		},
	};
}

export const signalsFeed = (at: SignalsTarget, filters: IDataObject): Feed => {
	const request = { ...at, operation: OPERATION };
	const endpoint = { request, list: pageNumberList(SIGNALS_PAGE_SIZE, filters) };
	return feed(SIGNALS_PAGE_SIZE, endpoint, 'signal_id', asItCame, pageNumberList(1, filters).first);
};

/** `source`: the company as the user gave it (`at` may be its registered domain's), which the error names when the service tracks none. */
export const sourceJobsFeed = (at: SourceTarget<'jobs'>, source: SourceRef): Feed => {
	const named: Record<string, string> = source.by === 'domain' ? { url_source: source.value } : { source_id: source.value };
	const explain: Explain = (node, error) =>
		error instanceof NodeApiError && error.httpCode === '404' ? explained(node, error, notFoundStep(ENDPOINTS[at.endpoint].notFound, named)) : error;
	return feed(LIMITS.cursorPageSize, { request: { ...at, operation: OPERATION }, list: jobsCursorList() }, 'job_id', explain);
};

/** A filter the account's plan lacks fails the poll with Job → Search's error, which says which field to remove. */
export const jobSearchFeed = (filters: IDataObject): Feed =>
	feed(LIMITS.jobSearchPageSize, { request: { endpoint: 'jobSearch', operation: OPERATION }, list: offsetList(filters) }, 'job_id', (node, error) => unavailableFilterError(node, error, filters));

/**
 * The position one item before `position` (offset and page kinds), `stepBack` pages further up: where a
 * resumed walk looks for the last item an earlier poll handled, to see whether the list moved under the stored place.
 * Undefined when that is above the top of the list, or for a cursor (cursors are tied to an item, not a place).
 */
export function oneBefore(feed: Feed, position: PageQuery, stepBack = 0): PageQuery | undefined {
	if (feed.kind === 'offset') {
		const offset = Number(position.offset) - 1 - stepBack * feed.pageSize;
		return offset < 0 ? undefined : { ...position, offset };
	}
	if (feed.kind === 'page') {
		const page = Number(position.page) - 1 - stepBack;
		return page < 1 ? undefined : { ...position, page };
	}
	return undefined;
}

/** What a segment keeps of a position: the parameters that differ from the list's first page (offset, page, cursor), not the filters. */
export function placeOf(feed: Feed, position: PageQuery): PageQuery {
	return Object.fromEntries(Object.entries(position).filter(([name, value]) => JSON.stringify(feed.first[name]) !== JSON.stringify(value)));
}

/** The position a kept place stands for (a place kept whole by an earlier version reads the same). */
export const queryAt = (feed: Feed, place: PageQuery): PageQuery => ({ ...feed.first, ...place });

/** The feed the trigger's parameters select, built with the action node's parameter checks; its key names the event too: switching events starts afresh. */
export async function feedFor(context: IPollFunctions, event: PollEvent): Promise<Feed> {
	const feed = await listFor(context, event);
	return { ...feed, key: JSON.stringify([event, feed.key]) };
}

async function listFor(context: IPollFunctions, event: PollEvent): Promise<Feed> {
	if (event === 'newSignal') {
		const { target, filters } = readSignalSelection(context.getNode(), (name, fallback) => context.getNodeParameter(name, fallback));
		return signalsFeed(target, filters);
	}
	if (event === 'newJob' && context.getNodeParameter('jobsFrom', 'source') === 'search') {
		return jobSearchFeed(searchQuery(context.getNode(), (name, fallback) => context.getNodeParameter(name, fallback)));
	}
	const source = sourceRefFrom(context.getNode(), context.getNodeParameter('source', undefined, { extractValue: false }));
	return sourceJobsFeed(await sourceJobsTarget(context, source), source);
}

/** Where One Source's resolution is kept in the node's static data. */
const RESOLVED = 'sourcePath';

/**
 * The jobs endpoint of One Source. A domain with a subdomain (a careers or jobs site, the form of the API's own url_job)
 * is resolved with the action node's locator (forSourceRef): the host as given, else its registered domain. The
 * resolution is kept in the node's static data as the path it selects, so only the first poll pays for it (committed
 * with a successful poll).
 */
async function sourceJobsTarget(context: IPollFunctions, ref: SourceRef): Promise<SourceTarget<'jobs'>> {
	const candidates = ref.by === 'id' ? [ref.value] : domainCandidates(ref.value);
	if (candidates.length === 1) return sourceTarget(ref, 'jobs');
	const data = context.getWorkflowStaticData('node');
	const saved = data[RESOLVED] as IDataObject | undefined;
	const kept = saved?.given === ref.value ? candidates.map((value) => sourceTarget({ ...ref, value }, 'jobs')).find((at) => pathOf(at) === saved.path) : undefined;
	if (kept) return kept;
	const at = await forSourceRef(context.getNode(), ref, 'jobs', async (candidate) => {
		// The first page of the candidate's jobs: a 404 says the service tracks no such company.
		await new PageReader(context, { request: { ...candidate, operation: OPERATION }, list: jobsCursorList() }).read({});
		return candidate;
	});
	data[RESOLVED] = { given: ref.value, path: pathOf(at) };
	return at;
}
