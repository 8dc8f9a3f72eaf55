/**
 * New Signal and New Job: one poll. The top of the list is read down to the
 * saved Mark (an idle poll reads one page); a backlog left by earlier polls is
 * drained while the budget lasts. Items come out newest first, as the API lists them.
 */
import type { IPollFunctions } from 'n8n-workflow';
import { isAbove, isNew, STATE_BOUNDS, type Keyed, type Mark, type PollState, type Segment, type StateBounds } from './position';
import type { TimeBudget } from './read-down';
import { queryAt, type Feed } from './feeds';
import { readDown } from './read-down';

/** Below everything: a walk against it emits nothing and stops after its first page. */
const ALL_OLD: Mark = { at: Infinity, from: Infinity, ids: [] };

/**
 * Whether one of these segments still holds the item. A walk may read into an
 * older segment's part of the list (the top walk's last page, a late item
 * there): the oldest segment holding an item is the one that emits it.
 */
const pendingIn = (item: Keyed, segments: Segment[]) => segments.some((s) => !isAbove(item, s.above) && isNew(item, s.below));

export async function pollNew(
	context: IPollFunctions,
	feed: Feed,
	saved: PollState | undefined,
	includeExisting: boolean,
	budget: TimeBudget,
	bounds: StateBounds = STATE_BOUNDS,
): Promise<{ emitted: Keyed[]; state: PollState }> {
	if (!saved && !includeExisting) {
		// First activation: store where the list stands.
		const first = await readDown(context, feed, { position: feed.first, below: ALL_OLD }, budget, bounds);
		return { emitted: [], state: { key: feed.key, top: first.seen.mark(first.ended), backlog: [] } };
	}
	const state: PollState = saved ?? { key: feed.key, top: null, backlog: [] };
	// As many segments as the state keeps: drain them first; the top waits (its items stay new, later, never lost).
	const top = state.backlog.length >= bounds.segments ? undefined : await readDown(context, feed, { position: feed.first, below: state.top }, budget, bounds);
	const emitted = top ? top.emitted.filter((item) => !pendingIn(item, state.backlog)) : [];
	const backlog: Segment[] = [];
	let drained = false;
	for (const [index, segment] of state.backlog.entries()) {
		// Each poll moves the backlog on by at least a page; more while the budget lasts.
		if (top?.rest || (drained && budget.spent())) {
			backlog.push(segment);
			continue;
		}
		const part = await readDown(context, feed, { position: queryAt(feed, segment.resume), above: segment.above, below: segment.below }, budget, bounds);
		drained = true;
		const older = state.backlog.slice(index + 1);
		for (const item of part.emitted) if (!pendingIn(item, older)) emitted.push(item);
		if (part.rest) backlog.push(part.rest);
	}
	if (top?.rest) backlog.unshift(top.rest);
	const unique = new Map(emitted.map((item) => [item.id, item]));
	return { emitted: [...unique.values()], state: { key: feed.key, top: top ? top.seen.mark(top.ended) : state.top, backlog } };
}
