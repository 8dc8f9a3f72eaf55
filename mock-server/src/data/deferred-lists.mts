/**
 * The changes a cycle makes to the store's long sorted lists (each
 * account's jobs and their serials, every signal), kept aside while the cycle
 * runs and put in at its end. Spliced one by one, 1,000 new jobs and signals
 * moved 100,000-entry arrays thousands of times: two thirds of a large cycle's
 * CPU time; a merge reads each list once (~0.3 µs an entry), dearer than a few
 * splices (~1 ns an entry moved), so a small cycle's changes are still spliced.
 * Nobody reads those lists meanwhile (the cycle holds the data gate), and either
 * way gives the same order (newest first, keys unique).
 */
import type { Signal } from '../base/contract.mts';
import type { Work } from '../base/work.mts';
import { STEPS_PER_TURN } from '../base/work.mts';
import type { StoredJob } from './model.mts';
import { newestFirst } from './order.mts';

/** An entry of a merged list costs ~0.2–0.5 µs (its key read, the id looked up, the entry written): 10,000 a turn. */
const MERGE_STEPS = STEPS_PER_TURN / 10_000;
const MERGE_CHECK = 1024;

export class DeferredLists {
	/** Jobs added during the cycle (their latest value), by id; a job added and removed again is in neither map. */
	readonly addedJobs = new Map<string, StoredJob>();
	readonly removedJobs = new Map<string, StoredJob>();
	readonly addedSignals = new Map<string, Signal>();
	readonly removedSignals = new Map<string, Signal>();

	/** Whether a merge costs less than splicing each change in (at 100,000 entries a list, past ~300 changes). */
	get worthMerging(): boolean {
		return this.addedJobs.size + this.removedJobs.size + this.addedSignals.size + this.removedSignals.size > SPLICES_AT_MOST;
	}
}

const SPLICES_AT_MOST = 256;

/**
 * `list` without the removed ids, with `added` (sorted newest first here) merged in; `visit` is
 * told of every entry written, the list's own with their old position, the added ones with -1.
 */
export async function mergeNewestFirst<T>(
	list: readonly T[],
	added: T[],
	removed: ReadonlyMap<string, unknown>,
	key: (item: T) => { created_at: number; id: string },
	visit: (item: T, from: number) => void,
	work: Work,
): Promise<void> {
	added.sort((a, b) => newestFirst(key(a), key(b)));
	let next = 0;
	for (let i = 0; i < list.length; i++) {
		if (i % MERGE_CHECK === MERGE_CHECK - 1) await work.spend(MERGE_CHECK * MERGE_STEPS);
		const item = list[i];
		const k = key(item);
		if (removed.has(k.id)) continue;
		while (next < added.length && newestFirst(key(added[next]), k) < 0) visit(added[next++], -1);
		visit(item, i);
	}
	while (next < added.length) visit(added[next++], -1);
}
