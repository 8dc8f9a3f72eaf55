/**
 * One walk down a list, newest first: from the top (what is new since the
 * last poll) or from a backlog segment's resume point. It stops at the first
 * page that ends below the Mark under it, at the end of the list, or when the
 * poll's time budget runs out (then it hands back a segment to resume from).
 */
import type { ServiceContext } from '../shared/transport/request';
import { edgeAfter, isAbove, isNew, mayContinue, type Edge, type Keyed, type Mark, type Segment } from './position';
import type { PageQuery } from '../shared/pages/list-kinds';
import { oneBefore, type Feed, type FeedReader } from './feeds';

export interface ReadStart {
	position: PageQuery;
	/** Resuming a segment: what was handled above it (skipped, and used to check the list did not move up). */
	above?: Edge;
	below: Mark | null;
}

export interface ReadResult {
	emitted: Keyed[];
	/** Every item read, newest first (from the top: what the next Mark is made of). */
	seen: Keyed[];
	ended: boolean;
	/** Set when the budget ran out first. */
	rest?: Segment;
}

/** Reads at least one page, then goes on while the budget lasts. */
export async function readDown(context: ServiceContext, feed: Feed, start: ReadStart, budget: TimeBudget): Promise<ReadResult> {
	const emitted: Keyed[] = [];
	const seen: Keyed[] = [];
	let edge = start.above;
	// One reader per walk: it refuses a page the walk already read (a cursor or page number that loops).
	const reader = feed.reader(context);
	let page = start.above ? await resumedPage(reader, feed, start.position, start.above, budget) : await budget.time(reader.read(start.position));
	for (;;) {
		const fresh = edge ? page.items.filter((item) => !isAbove(item, edge as Edge)) : page.items;
		emitted.push(...fresh.filter((item) => isNew(item, start.below)));
		seen.push(...page.items);
		edge = edgeAfter(page.items, edge);
		const last = page.items[page.items.length - 1];
		if (page.next === undefined) return { emitted, seen, ended: true };
		if (last && !mayContinue(last, start.below)) return { emitted, seen, ended: false };
		// A page was read, so the edge is set.
		if (budget.spent()) return { emitted, seen, ended: false, rest: { resume: page.next, above: edge as Edge, below: start.below } };
		page = await budget.time(reader.read(page.next));
	}
}

/**
 * The first page of a resumed segment. Offset and page positions are places in
 * the list, which moves as items come and go: the page is read from one item
 * earlier, and that item must be one already handled. If it is not, items above
 * were removed and the list moved up past the stored place: step back a page
 * and look again (from the top, at worst). Items already handled are skipped by the walk.
 */
async function resumedPage(reader: FeedReader, feed: Feed, position: PageQuery, above: Edge, budget: TimeBudget) {
	for (let stepBack = 0; ; stepBack++) {
		const before = oneBefore(feed, position, stepBack);
		const page = await budget.time(reader.read(before?.position ?? (stepBack === 0 ? position : feed.first)));
		if (!before) return page;
		const items = page.items.slice(before.drop);
		if (items.length > 0 && isAbove(items[0], above)) return { ...page, items };
	}
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
