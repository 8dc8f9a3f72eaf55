/**
 * The dedupe window: the ids of the last WINDOW_SIZE events this trigger
 * emitted, kept in the workflow's static data so a restart does not forget them.
 *
 * Why 2,000: a delivery's retries end within about 27 s of its first attempt
 * (backoff 1 + 2 + 4 s plus four 5 s timeouts), and at the spec's one delivery
 * per second that is about 30 deliveries; 2,000 leaves room for a much faster
 * service, and keeps the static data, which n8n writes back after every
 * delivery, near 80 KB.
 *
 * The ids are stored as one newline-separated string ("\nid1\nid2\n"): a
 * lookup is one native substring search, and every change is one property
 * assignment, which n8n's static-data proxy always notices.
 */
import type { IDataObject } from 'n8n-workflow';

export const WINDOW_SIZE = 2000;

/** Records the id; false when it is already in the window (a repeated delivery). */
export function rememberEvent(staticData: IDataObject, eventId: string): boolean {
	const stored = staticData.seenEventIds;
	const seen = typeof stored === 'string' && stored.startsWith('\n') && stored.endsWith('\n') ? stored : '\n';
	if (seen.includes(`\n${eventId}\n`)) return false;
	let next = `${seen}${eventId}\n`;
	const storedCount = staticData.seenEventCount;
	// The stored count saves a scan; anything odd in it (hand-edited static data) is recounted.
	let count =
		seen !== '\n' &&
		typeof storedCount === 'number' &&
		Number.isInteger(storedCount) &&
		storedCount >= 1 &&
		storedCount <= WINDOW_SIZE
			? storedCount + 1
			: next.split('\n').length - 2;
	for (; count > WINDOW_SIZE; count--) next = next.slice(next.indexOf('\n', 1));
	staticData.seenEventIds = next;
	staticData.seenEventCount = count;
	return true;
}
