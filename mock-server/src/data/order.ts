/** "Newest first": created_at descending, then id descending so ties have one stable order. */
export function newestFirst(a: { created_at: number; id: string }, b: { created_at: number; id: string }): number {
	return b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

export const jobKey = (j: { job: { created_at: number; job_id: string } }) => ({ created_at: j.job.created_at, id: j.job.job_id });
export const signalKey = (s: { created_at: number; signal_id: string }) => ({ created_at: s.created_at, id: s.signal_id });

/** Sorts in place by a key function, newest first. */
export function sortNewestFirst<T>(items: T[], key: (item: T) => { created_at: number; id: string }): T[] {
	return items.sort((a, b) => newestFirst(key(a), key(b)));
}

/**
 * Where `item` goes in a newest-first list (or where it is, if present): a binary
 * search, so a change to a 100,000-record list costs a splice, not a sort.
 */
export function positionOf<T>(items: readonly T[], item: T, key: (item: T) => { created_at: number; id: string }): number {
	const wanted = key(item);
	let lo = 0;
	let hi = items.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (newestFirst(key(items[mid]), wanted) < 0) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}
