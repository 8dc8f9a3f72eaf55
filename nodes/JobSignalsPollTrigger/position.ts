/**
 * The poll position, kept in the node's poll state between polls. Lists come
 * newest first (created_at descending), so what is new sits on top:
 * - a Mark holds the newest created_at seen (`at`) and every id seen from
 *   `from` up to `at`. Newer items are new; an item inside [from, at] whose id
 *   is not listed is new too (a tie on the same second, or a late item whose
 *   created_at is older than items already seen); older items are old.
 * - a Segment is a part of the list a poll did not finish (its budget ran
 *   out): where to resume, what was already handled above it, and the Mark below.
 * Every part is bounded (STATE_BOUNDS), whatever the data: see "The saved state's size" in docs/poll-trigger.md.
 */
import { createHash } from 'node:crypto';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import type { PageQuery } from '../shared/pages/list-kinds';

export interface Mark {
	at: number;
	from: number;
	ids: string[];
}

/**
 * The last item handled: its second and the last ids handled at that second, in list order (a window: a
 * second with more items than WINDOW_ID_BYTES holds ids for keeps the last ones). Updated Job: `all` says
 * every job changed at `at` was handled, more than the window holds.
 */
export interface Edge {
	at: number;
	ids: string[];
	all?: boolean;
}

export interface Segment {
	/** Where to resume: the page's own parameter (offset, page, cursor), the list's filters left out (feeds.ts placeOf). */
	resume: PageQuery;
	above: Edge;
	/** null: everything down to the end of the list is new ("Include existing items"). */
	below: Mark | null;
}

export interface PollState {
	/** The parameters the state belongs to, as a digest (stateKey): when they change, the trigger starts afresh. */
	key: string;
	/** null: nothing held yet, every item is new. */
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

/**
 * The saved state's bounds, the one place they are set. n8n reads and writes the state on every poll, so it
 * stays at most `stateBytes` as JSON (UTF-8) whatever the data: the parts below add up to less (position.test.mts
 * builds the largest state each allows and measures it).
 */
export const STATE_BOUNDS = {
	stateBytes: 64 * 1024,
	/** A Mark (the top one, and each segment's below): at most this many ids, whole seconds only... */
	markIds: 200,
	/** ...and at most this many bytes of them. */
	markIdBytes: 8 * 1024,
	/** An Edge's window: the last ids handled at its second. */
	windowIdBytes: 4 * 1024,
	/** A segment's resume parameter (a cursor is the service's string): a longer one is not kept, the walk reads on. */
	resumeBytes: 1024,
	/** Segments kept: with this many, a poll drains them before it reads the top again. */
	segments: 3,
};

export type StateBounds = typeof STATE_BOUNDS;

/** The ids a Mark may keep: the newest items, enough for a page or two of late-item checks. */
export const MAX_MARK_IDS = STATE_BOUNDS.markIds;

/** What a value takes in the saved JSON, in bytes (an id with its quotes and comma). */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value)) + 1;

/** The parameters' digest: the state's size does not depend on how long the filters are. */
export const stateKey = (parameters: string): string => createHash('sha256').update(parameters).digest('base64url');

/** Ids as a Set, made once per array (a Mark or window is read for every item of every page). */
const sets = new WeakMap<readonly string[], ReadonlySet<string>>();
function idSet(ids: readonly string[]): ReadonlySet<string> {
	let set = sets.get(ids);
	if (!set) {
		set = new Set(ids);
		sets.set(ids, set);
	}
	return set;
}

export function isNew(item: Keyed, below: Mark | null): boolean {
	if (below === null || item.created > below.at) return true;
	return item.created >= below.from && !idSet(below.ids).has(item.id);
}

/** Whether an item was already handled above a segment's resume point (by its second, or listed in the window). */
export function isAbove(item: Keyed, above: Edge): boolean {
	return item.created > above.at || (item.created === above.at && idSet(above.ids).has(item.id));
}

/** Whether an item is one of the window's ids. */
export const inWindow = (item: Keyed, above: Edge): boolean => item.created === above.at && idSet(above.ids).has(item.id);

/**
 * Whether the walk must read on after a page ending with `last`: items on the next page may still be new.
 * A Mark whose newest second is closed (`from` above `at`) holds nothing new at `at`: the walk stops there.
 */
export function mayContinue(last: Keyed, below: Mark | null): boolean {
	return below === null || last.created >= Math.max(below.at, below.from);
}

/** The longest tail of `ids` within `bytes`. */
function tailWithin(ids: string[], bytes: number): string[] {
	let used = 0;
	let start = ids.length;
	while (start > 0 && used + jsonBytes(ids[start - 1]) <= bytes) used += jsonBytes(ids[--start]);
	return start === 0 ? ids : ids.slice(start);
}

/**
 * The edge after handling `items` (newest first). It only moves down: a
 * resumed page can start with items above the previous edge (the list moved
 * down under the stored place), and those were handled long ago.
 */
export function edgeAfter(items: Keyed[], previous?: Edge, bounds: StateBounds = STATE_BOUNDS): Edge | undefined {
	const last = items[items.length - 1];
	if (!last || (previous && isAbove(last, previous))) return previous;
	const ids = items.filter((i) => i.created === last.created).map((i) => i.id);
	const joined = previous?.at === last.created ? [...new Set([...previous.ids, ...ids])] : ids;
	return { at: last.created, ids: tailWithin(joined, bounds.windowIdBytes) };
}

/**
 * What a walk from the top keeps for the next Mark: its first items (one more than a Mark lists, which
 * shows whether a second goes on) and the second of the last item read. Nothing else of the walk is kept.
 */
export class TopSeen {
	readonly head: Keyed[] = [];
	last: number | undefined;

	constructor(private readonly bounds: StateBounds = STATE_BOUNDS) {}

	add(items: Keyed[]): void {
		for (const item of items) {
			if (this.head.length > this.bounds.markIds) break;
			this.head.push(item);
		}
		if (items.length > 0) this.last = items[items.length - 1].created;
	}

	/** `ended`: the walk reached the end of the list. */
	mark(ended: boolean): Mark {
		return markOf(this.head, this.last, ended, this.bounds);
	}
}

/**
 * The Mark after a walk from the top of the list. `seen` is every item read,
 * newest first, without gaps; `ended`: the walk reached the end of the list.
 * The last second read is left out unless the list ended (more items of that
 * second may follow on the next page). Nothing read: the list is empty, every later item is new.
 */
export function markFrom(seen: Keyed[], ended: boolean, bounds: StateBounds = STATE_BOUNDS): Mark {
	const walk = new TopSeen(bounds);
	walk.add(seen);
	return walk.mark(ended);
}

function markOf(head: Keyed[], last: number | undefined, ended: boolean, bounds: StateBounds): Mark {
	if (head.length === 0 || last === undefined) return { at: 0, from: 0, ids: [] };
	const cut = ended ? -Infinity : last;
	const kept = head.filter((i) => i.created > cut);
	// Whole seconds from the top while they fit: a Mark lists every id of each second it covers. The head holds
	// one item more than the count allows, so a second that runs past it never fits.
	let taken = 0;
	let bytes = 0;
	for (let end = 0; end < kept.length; ) {
		let next = end;
		let size = 0;
		while (next < kept.length && kept[next].created === kept[end].created) size += jsonBytes(kept[next++].id);
		if (next > bounds.markIds || bytes + size > bounds.markIdBytes) break;
		taken = next;
		bytes += size;
		end = next;
	}
	// The newest second not read to its end, or holding more ids than fit: everything up to it is old, later items on it
	// are not told apart (a backlog segment holds the rest of it when the walk did not finish it).
	if (taken === 0) return { at: head[0].created, from: head[0].created + 1, ids: [] };
	return { at: kept[0].created, from: kept[taken - 1].created, ids: kept.slice(0, taken).map((i) => i.id) };
}

/**
 * Updated Job's edge, kept while its walk reads every page: the newest updated_at and the ids changed at it,
 * until they outgrow the window (then `all`: every job at that second counts as handled).
 */
export class NewestChange {
	private ids: string[] = [];
	private bytes = 0;
	private all = false;

	constructor(
		public at: number,
		private readonly bounds: StateBounds = STATE_BOUNDS,
	) {}

	add(id: string, changedAt: number): void {
		if (changedAt > this.at) {
			this.at = changedAt;
			this.ids = [];
			this.bytes = 0;
			this.all = false;
		}
		if (changedAt !== this.at || this.all) return;
		this.bytes += jsonBytes(id);
		if (this.bytes <= this.bounds.windowIdBytes) this.ids.push(id);
		else {
			this.ids = [];
			this.all = true;
		}
	}

	edge(): Edge {
		return this.all ? { at: this.at, ids: [], all: true } : { at: this.at, ids: this.ids };
	}
}

/** Whether a job's change is one Updated Job has not handled: newer than the edge, or on its second and not listed. */
export function changedSince(id: string, changedAt: number, since: Edge): boolean {
	return changedAt > since.at || (changedAt === since.at && !since.all && !idSet(since.ids).has(id));
}

/**
 * Where the poll state lives: the node's static data, which n8n 2.40 hands a
 * poll as a staged copy (PollContext's resolveNodeStaticData) and commits only
 * after the poll's items were handed off, or after a poll that emitted nothing.
 * A poll that throws commits nothing. The state is replaced only once a poll
 * has succeeded, so an engine without staging also keeps the last good state.
 */

const FIELD = 'pollState';

/**
 * The saved state, if it belongs to these parameters (`key`, their digest); otherwise the trigger starts afresh.
 * A state written before the key was a digest holds the parameters themselves (`parameters`): it goes on, under the digest.
 */
export function readState(context: IPollFunctions, key: string, parameters: string): PollState | undefined {
	const saved = context.getWorkflowStaticData('node')[FIELD] as PollState | undefined;
	if (typeof saved !== 'object' || saved === null || (saved.key !== key && saved.key !== parameters) || !Array.isArray(saved.backlog)) return undefined;
	return { ...saved, key };
}

export function writeState(context: IPollFunctions, state: PollState): void {
	// A plain JSON copy: static data is saved as JSON, and nothing of the poll's items may stay referenced.
	context.getWorkflowStaticData('node')[FIELD] = JSON.parse(JSON.stringify(state)) as IDataObject;
}
