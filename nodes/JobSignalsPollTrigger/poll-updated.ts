/**
 * Updated Job (jobs of one source): the list is ordered by created_at, so a
 * change can sit on any page. Every jobs page carries metrics.updated_at, the
 * newest change among the source's jobs: an idle poll reads the first page and
 * stops; when it moved, the poll reads every page and emits the jobs changed
 * since the last poll, leaving out jobs created since (those are New Job events).
 * The first activation reads every page once, to know each job's last change.
 * A change walk is not cut by the poll budget. It holds one page at a time, the
 * changed jobs (the output) and running figures: the newest change, the next Mark's first items.
 */
import type { IPollFunctions } from 'n8n-workflow';
import { changedSince, isNew, NewestChange, STATE_BOUNDS, TopSeen, type Keyed, type PollState, type StateBounds } from './position';
import type { Feed } from './feeds';

const updatedAt = (item: Keyed) => (typeof item.item.updated_at === 'number' ? item.item.updated_at : -Infinity);

export async function pollUpdated(
	context: IPollFunctions,
	feed: Feed,
	saved: PollState | undefined,
	bounds: StateBounds = STATE_BOUNDS,
): Promise<{ emitted: Keyed[]; state: PollState }> {
	const reader = feed.reader(context);
	let page = await reader.read(feed.first);
	const reported = Number(page.metrics?.updated_at);
	const since = saved?.updated;
	if (since && saved.top && !(reported > since.at)) return { emitted: [], state: saved };
	// First activation (nothing to compare with): the walk only stores which jobs exist and the newest change.
	const previous = since && saved.top ? { since, top: saved.top } : undefined;
	const newest = new NewestChange(Math.max(since?.at ?? 0, Number.isFinite(reported) ? reported : 0), bounds);
	const top = new TopSeen(bounds);
	const changed: Keyed[] = [];
	// Every page of the source: the change can be anywhere.
	for (;;) {
		top.add(page.items);
		for (const item of page.items) {
			const changedAt = updatedAt(item);
			newest.add(item.id, changedAt);
			if (previous && changedSince(item.id, changedAt, previous.since) && !isNew(item, previous.top)) changed.push(item);
		}
		if (!page.next) break;
		page = await reader.read(page.next);
	}
	return { emitted: changed, state: { key: feed.key, top: top.mark(true), backlog: [], updated: newest.edge() } };
}
