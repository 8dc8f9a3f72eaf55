/**
 * One walk down a list, newest first: from the top (what is new since the
 * last poll) or from a backlog segment's resume point. It stops at the first
 * page that ends below the Mark under it, at the end of the list, or when the
 * poll's time budget runs out (then it hands back a segment to resume from).
 */
import type { ServiceContext } from '../shared/transport/request';
import { edgeAfter, inWindow, isAbove, isNew, jsonBytes, mayContinue, STATE_BOUNDS, TopSeen, type Edge, type Keyed, type Mark, type Segment, type StateBounds } from './position';
import type { PageQuery } from '../shared/pages/list-kinds';
import { oneBefore, placeOf, type Feed, type FeedPage } from './feeds';

export interface ReadStart {
	position: PageQuery;
	/** Resuming a segment: what was handled above it (skipped, and used to find the stored place again). */
	above?: Edge;
	below: Mark | null;
}

export interface ReadResult {
	/** The new items, newest first: the poll's output. */
	emitted: Keyed[];
	/** What the next Mark is made of (from the top): the first items read and the last one's second; no more. */
	seen: TopSeen;
	ended: boolean;
	/** Set when the budget ran out first. */
	rest?: Segment;
}

/** Reads at least one page, then goes on while the budget lasts. Holds one page of the list at a time, and the new items. */
export async function readDown(context: ServiceContext, feed: Feed, start: ReadStart, budget: TimeBudget, bounds: StateBounds = STATE_BOUNDS): Promise<ReadResult> {
	const emitted: Keyed[] = [];
	const seen = new TopSeen(bounds);
	let edge = start.above;
	// One reader per walk: it refuses a page the walk already read (a cursor or page number that loops).
	const reader = feed.reader(context);
	let page = start.above ? await resumedPage(context, feed, start.position, start.above, budget) : await budget.time(reader.read(start.position));
	for (;;) {
		for (const item of page.items) if ((!edge || !isAbove(item, edge)) && isNew(item, start.below)) emitted.push(item);
		seen.add(page.items);
		edge = edgeAfter(page.items, edge, bounds);
		const last = page.items[page.items.length - 1];
		if (page.next === undefined) return { emitted, seen, ended: true };
		if (last && !mayContinue(last, start.below)) return { emitted, seen, ended: false };
		// A page was read, so the edge is set. A resume parameter too long to keep (a cursor is the service's string): read on.
		const resume = placeOf(feed, page.next);
		if (budget.spent() && jsonBytes(resume) <= bounds.resumeBytes) return { emitted, seen, ended: false, rest: { resume, above: edge as Edge, below: start.below } };
		page = await budget.time(reader.read(page.next));
	}
}

/** The index of the last item above the edge's second (its top), or -1. */
function lastAbove(items: Keyed[], above: Edge): number {
	for (let i = items.length - 1; i >= 0; i--) if (items[i].created > above.at) return i;
	return -1;
}

/**
 * The first page of a resumed segment, from the last item handled on. A cursor
 * names an item: its page starts after it. Offset and page positions are
 * places in the list, which moves as items come and go, so the place is found
 * again by the edge's window (the last ids handled at its second), from the
 * page before the stored place:
 * - up, a page at a time, while the window is not found (items above were
 *   deleted: the list moved up), to the top of the edge's second;
 * - then down from the stored place (more new items above than the window
 *   holds: the list moved down further than it reaches).
 * Items before the window's first item found are the ones handled before it.
 * If the window's items are all gone (deleted), the walk goes on from the top
 * of that second: its items handled earlier come again (at least once, never lost).
 */
async function resumedPage(context: ServiceContext, feed: Feed, position: PageQuery, above: Edge, budget: TimeBudget): Promise<FeedPage> {
	// A probe is a walk of its own: the segment's walk goes on from the page found, which its reader has not read.
	const probe = (query: PageQuery) => budget.time(feed.reader(context).read(query));
	if (!oneBefore(feed, position)) return await probe(position);
	for (let stepBack = 0; ; stepBack++) {
		const before = oneBefore(feed, position, stepBack);
		const page = await probe(before ?? feed.first);
		const found = page.items.findIndex((item) => inWindow(item, above));
		if (found >= 0) return { ...page, items: page.items.slice(found) };
		const topOfSecond = lastAbove(page.items, above);
		if (topOfSecond >= 0 || !before) return (await windowBelow(context, feed, position, above, budget)) ?? { ...page, items: page.items.slice(topOfSecond + 1) };
	}
}

/** Down from the stored place to the window; undefined once the edge's second (or the list) ends without it. */
async function windowBelow(context: ServiceContext, feed: Feed, position: PageQuery, above: Edge, budget: TimeBudget): Promise<FeedPage | undefined> {
	const reader = feed.reader(context);
	for (let query: PageQuery | undefined = position; query; ) {
		const page: FeedPage = await budget.time(reader.read(query));
		const found = page.items.findIndex((item) => inWindow(item, above));
		if (found >= 0) return { ...page, items: page.items.slice(found) };
		if (page.items.some((item) => item.created < above.at)) return undefined;
		query = page.next;
	}
	return undefined;
}

/**
 * The poll's time budget (IPollFunctions.getPollBudgetMs): a walk starts no
 * new page once what is left would not cover a quarter of the budget or twice
 * the slowest page so far (pacing waits and retries included), so the poll
 * returns what it has before the engine abandons the tick.
 */
export class TimeBudget {
	private readonly started = Date.now();
	private slowest = 0;

	constructor(private readonly ms: number) {}

	async time<T>(work: Promise<T>): Promise<T> {
		const begun = Date.now();
		try {
			return await work;
		} finally {
			this.slowest = Math.max(this.slowest, Date.now() - begun);
		}
	}

	spent(): boolean {
		const left = this.ms - (Date.now() - this.started);
		return left < Math.max(this.ms / 4, 2 * this.slowest);
	}
}
