/**
 * Which ids Keep New Jobs and Signals holds: how many, and which come first when a batch brings more than that.
 * Here rather than in the operation file, so the tests and the benchmark that work at this bound read it from one place.
 */
import type { IDataObject } from 'n8n-workflow';

/**
 * The ids the row of seen ids holds: a long downtime's catch-up can bring more (a poll drains its backlog in one execution),
 * and then the newest of them are held (newestFirst). n8n reads the whole row and writes it back on every execution,
 * so its size is every execution's cost (measured: docs/guarantees.md, "Keep New's row of seen ids").
 */
export const MAX_SEEN = 10_000;

/**
 * When the item's record was made, in ms: its `created_at` (epoch seconds from the service, or ISO 8601 in Simplified
 * output), the field both of the service's lists are ordered by; undefined when it has none that reads as a time.
 */
function createdAt(item: IDataObject): number | undefined {
	const value = item.created_at;
	const time = typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : Number.NaN;
	return Number.isFinite(time) ? time : undefined;
}

/**
 * The indexes of `items`, newest first: by `created_at`, newest first; items without one after those that have one;
 * on the same time, or none, in item order (the triggers emit newest first).
 */
export function newestFirst(items: IDataObject[]): number[] {
	const times = items.map(createdAt);
	return items
		.map((_, index) => index)
		.sort((a, b) => {
			const [timeA, timeB] = [times[a], times[b]];
			if (timeA !== timeB) {
				if (timeA === undefined) return 1;
				if (timeB === undefined) return -1;
				return timeB - timeA;
			}
			return a - b;
		});
}
