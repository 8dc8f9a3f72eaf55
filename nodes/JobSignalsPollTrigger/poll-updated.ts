/**
 * Updated Job (jobs of one source): the list is ordered by created_at, so a
 * change can sit on any page. Every jobs page carries metrics.updated_at, the
 * newest change among the source's jobs: an idle poll reads the first page and
 * stops; when it moved, the poll reads every page and emits the jobs changed
 * since the last poll, leaving out jobs created since (those are New Job events).
 * The first activation reads every page once, to know each job's last change.
 * A change walk is not cut by the poll budget: one company's jobs are a few pages.
 */
import type { IPollFunctions } from 'n8n-workflow';
import { isNew, markFrom, type Keyed, type PollState } from './position';
import type { Feed, FeedPage, FeedReader } from './feeds';

const updatedAt = (item: Keyed) => (typeof item.item.updated_at === 'number' ? item.item.updated_at : -Infinity);

export async function pollUpdated(
	context: IPollFunctions,
	feed: Feed,
	saved: PollState | undefined,
): Promise<{ emitted: Keyed[]; state: PollState }> {
	const reader = feed.reader(context);
	const first = await reader.read(feed.first);
	const reported = Number(first.metrics?.updated_at);
	const since = saved?.updated;
	if (since && saved.top && !(reported > since.at)) return { emitted: [], state: saved };
	const all = await readAll(reader, first);
	const at = Math.max(since?.at ?? 0, Number.isFinite(reported) ? reported : 0, ...all.map(updatedAt));
	const state: PollState = {
		key: feed.key,
		top: markFrom(all, true),
		backlog: [],
		updated: { at, ids: all.filter((item) => updatedAt(item) === at).map((item) => item.id) },
	};
	// First activation: the walk only records which jobs exist and the newest change.
	if (!since || !saved.top) return { emitted: [], state };
	const top = saved.top;
	const changed = all.filter((item) => {
		const changedAt = updatedAt(item);
		return (changedAt > since.at || (changedAt === since.at && !since.ids.includes(item.id))) && !isNew(item, top);
	});
	return { emitted: changed, state };
}

/** Every page of the source; the change can be anywhere. */
async function readAll(reader: FeedReader, first: FeedPage): Promise<Keyed[]> {
	const all = [...first.items];
	let next = first.next;
	while (next) {
		const page = await reader.read(next);
		all.push(...page.items);
		next = page.next;
	}
	return all;
}
