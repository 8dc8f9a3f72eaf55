/**
 * Opaque cursors: base64url of the sort key of the last item served, so the
 * next page starts strictly after it even if that item has since been deleted.
 * Anything that does not decode to the expected shape is malformed (400).
 */
export function encodeCursor(key: string): string {
	return Buffer.from(key, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, shape: RegExp): string | undefined {
	if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
	const key = Buffer.from(cursor, 'base64url').toString('utf8');
	return shape.test(key) && encodeCursor(key) === cursor ? key : undefined;
}

/**
 * One cursor page of a sorted list: from the first item `startAfter` accepts (the cursor's key lies before it;
 * without it, from the first item), at most `size`; `next` is set only while more items remain.
 */
export function cursorPage<T>(
	items: readonly T[],
	size: number,
	keyOf: (item: T) => string,
	startAfter?: (item: T) => boolean,
): { page: T[]; next?: string } {
	const from = startAfter ? firstIndex(items, startAfter) : 0;
	const page = items.slice(from, from + size);
	const more = from + size < items.length;
	return { page, next: more && page.length > 0 ? encodeCursor(keyOf(page[page.length - 1])) : undefined };
}

/** Binary search for the first item satisfying a predicate that is monotone over the sorted list. */
function firstIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
	let lo = 0;
	let hi = items.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (predicate(items[mid])) hi = mid;
		else lo = mid + 1;
	}
	return lo;
}
