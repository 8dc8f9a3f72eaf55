/**
 * New Signal and New Job: one poll. The top of the list is read down to the
 * saved Mark (an idle poll reads one page); a backlog left by earlier polls is
 * drained while the budget lasts. Items come out newest first, as the API lists them.
 */
import type { IPollFunctions } from 'n8n-workflow';
import { markFrom, type Keyed, type Mark, type PollState, type Segment } from './cursor';
import type { Budget } from './budget';
import type { Feed } from './feeds';
import { walk } from './walk';

/** Below everything: a walk against it emits nothing and stops after its first page. */
const ALL_OLD: Mark = { at: Infinity, from: Infinity, ids: [] };

export async function pollNew(
	context: IPollFunctions,
	feed: Feed,
	saved: PollState | undefined,
	includeExisting: boolean,
	budget: Budget,
): Promise<{ emitted: Keyed[]; state: PollState }> {
	if (!saved && !includeExisting) {
		// First activation: record where the list stands.
		const first = await walk(context, feed, { position: feed.first, below: ALL_OLD }, budget);
		return { emitted: [], state: { key: feed.key, top: markFrom(first.seen, first.ended), backlog: [] } };
	}
	const state: PollState = saved ?? { key: feed.key, top: null, backlog: [] };
	const top = await walk(context, feed, { position: feed.first, below: state.top }, budget);
	const emitted = [...top.emitted];
	const backlog: Segment[] = [];
	let drained = false;
	for (const segment of state.backlog) {
		// Each poll moves the oldest work on by at least a page; more while the budget lasts.
		if (top.rest || (drained && budget.spent())) {
			backlog.push(segment);
			continue;
		}
		const part = await walk(context, feed, { position: segment.resume, above: segment.above, below: segment.below }, budget);
		drained = true;
		emitted.push(...part.emitted);
		if (part.rest) backlog.push(part.rest);
	}
	if (top.rest) backlog.unshift(top.rest);
	const unique = new Map(emitted.map((item) => [item.id, item]));
	return { emitted: [...unique.values()], state: { key: feed.key, top: markFrom(top.seen, top.ended), backlog } };
}
