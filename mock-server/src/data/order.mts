/** "Newest first": created_at descending, then id descending so ties have one stable order. */
export function newestFirst(a: { created_at: number; id: string }, b: { created_at: number; id: string }): number {
	return b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

export const jobKey = (j: { job: { created_at: number; job_id: string } }) => ({ created_at: j.job.created_at, id: j.job.job_id });
export const signalKey = (s: { created_at: number; signal_id: string }) => ({ created_at: s.created_at, id: s.signal_id });

/**
 * The positions of `items` in newest-first order (the order of `newestFirst`). Each item's key is read
 * once, in the items' own order, into flat arrays, not made twice per comparison: at a million records
 * the keys made by the comparisons cost seconds of allocation and garbage collection.
 */
export function newestFirstOrder<T>(items: readonly T[], key: (item: T) => { created_at: number; id: string }): number[] {
	const created = new Float64Array(items.length);
	const ids = new Array<string>(items.length);
	items.forEach((item, i) => {
		const k = key(item);
		created[i] = k.created_at;
		ids[i] = k.id;
	});
	return Array.from(items.keys()).sort((a, b) => created[b] - created[a] || (ids[a] < ids[b] ? 1 : ids[a] > ids[b] ? -1 : 0));
}

/** Sorts in place by a key function, newest first. */
export function sortNewestFirst<T>(items: T[], key: (item: T) => { created_at: number; id: string }): T[] {
	const sorted = newestFirstOrder(items, key).map((i) => items[i]);
	sorted.forEach((item, i) => (items[i] = item));
	return items;
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
