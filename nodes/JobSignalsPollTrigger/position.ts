/**
 * The poll position, kept in the node's poll state between polls. Lists come
 * newest first (created_at descending), so what is new sits on top:
 * - a Mark records the newest created_at seen (`at`) and every id seen from
 *   `from` up to `at`. Newer items are new; an item inside [from, at] whose id
 *   is not listed is new too (a tie on the same second, or a late item whose
 *   created_at is older than items already seen); older items are old.
 * - a Segment is a part of the list a poll did not finish (its budget ran
 *   out): where to resume, what was already handled above it, and the Mark below.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import type { PageQuery } from '../shared/pages/list-kinds';

export interface Mark {
	at: number;
	from: number;
	ids: string[];
}

/** The last item handled: its second and the ids handled at that second. */
export interface Edge {
	at: number;
	ids: string[];
}

export interface Segment {
	resume: PageQuery;
	above: Edge;
	/** null: everything down to the end of the list is new ("Include existing items"). */
	below: Mark | null;
}

export interface PollState {
	/** The parameters the state belongs to: when they change, the trigger starts afresh. */
	key: string;
	/** null: nothing recorded yet, every item is new. */
	top: Mark | null;
	backlog: Segment[];
	/** Updated Job only: the newest updated_at handled and the ids handled at that second. */
	updated?: Edge;
	/** The hand-off that wrote this position (recent-hand-offs.ts); kept by polls that emit nothing. */
	handOff?: string;
}

export interface Keyed {
	id: string;
	created: number;
	item: IDataObject;
}

/** The ids a Mark may keep: the newest items, enough for a page or two of late-item checks. */
export const MAX_MARK_IDS = 200;

export function isNew(item: Keyed, below: Mark | null): boolean {
	if (below === null || item.created > below.at) return true;
	return item.created >= below.from && !below.ids.includes(item.id);
}

/** Whether an item was already handled above a segment's resume point. */
export function isAbove(item: Keyed, above: Edge): boolean {
	return item.created > above.at || (item.created === above.at && above.ids.includes(item.id));
}

/** Whether the walk must read on after a page ending with `last`: items on the next page may still be new. */
export function mayContinue(last: Keyed, below: Mark | null): boolean {
	return below === null || last.created >= below.at;
}

/**
 * The edge after handling `items` (newest first). It only moves down: a
 * resumed page can start with items above the previous edge (the list moved
 * down under the stored place), and those were handled long ago.
 */
export function edgeAfter(items: Keyed[], previous?: Edge): Edge | undefined {
	const last = items[items.length - 1];
	if (!last || (previous && isAbove(last, previous))) return previous;
	const ids = items.filter((i) => i.created === last.created).map((i) => i.id);
	return { at: last.created, ids: previous?.at === last.created ? [...new Set([...previous.ids, ...ids])] : ids };
}

/**
 * The Mark after a walk from the top of the list. `seen` is every item read,
 * newest first, without gaps; `ended`: the walk reached the end of the list.
 * The last second read is left out unless the list ended (more items of that
 * second may follow on the next page). Nothing read: the list is empty, every later item is new.
 */
export function markFrom(seen: Keyed[], ended: boolean): Mark {
	if (seen.length === 0) return { at: 0, from: 0, ids: [] };
	const cut = ended ? -Infinity : seen[seen.length - 1].created;
	let kept = seen.filter((i) => i.created > cut);
	// Only one second read, not to its end: everything up to it is old, nothing in it is listed (a backlog segment holds the rest).
	if (kept.length === 0) return { at: seen[0].created, from: seen[0].created + 1, ids: [] };
	if (kept.length > MAX_MARK_IDS) {
		// Cut on a change of second: a Mark lists every id of each second it covers.
		const last = kept[MAX_MARK_IDS - 1].created;
		const within = kept.filter((i) => i.created > last);
		kept = within.length > 0 ? within : kept.filter((i) => i.created === last);
	}
	return { at: kept[0].created, from: kept[kept.length - 1].created, ids: kept.map((i) => i.id) };
}

/**
 * Where the poll state lives: the node's static data, which n8n 2.40 hands a
 * poll as a staged copy (PollContext's resolveNodeStaticData) and commits only
 * after the poll's items were handed off, or after a poll that emitted nothing.
 * A poll that throws commits nothing. The state is replaced only once a poll
 * has succeeded, so an engine without staging also keeps the last good state.
 */

const FIELD = 'pollState';

/** The saved state, if it belongs to these parameters (`key`); otherwise the trigger starts afresh. */
export function readState(context: IPollFunctions, key: string): PollState | undefined {
	const saved = context.getWorkflowStaticData('node')[FIELD] as PollState | undefined;
	if (typeof saved !== 'object' || saved === null || saved.key !== key || !Array.isArray(saved.backlog)) return undefined;
	return saved;
}

export function writeState(context: IPollFunctions, state: PollState): void {
	// A plain JSON copy: static data is saved as JSON, and nothing of the poll's items may stay referenced.
	context.getWorkflowStaticData('node')[FIELD] = JSON.parse(JSON.stringify(state)) as IDataObject;
}
