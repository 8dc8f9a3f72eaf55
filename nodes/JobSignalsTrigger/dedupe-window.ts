/**
 * The persisted dedupe window: the ids of the last WINDOW_SIZE events a
 * trigger emitted, kept in the workflow's static data so a restart (and the
 * other processes of a queue-mode deployment) do not forget them.
 *
 * Why 2,000: a delivery's retries end within about 27 s of its first attempt
 * (backoff 1 + 2 + 4 s plus four 5 s timeouts), and at the spec's one delivery
 * per second that is about 30 deliveries; 2,000 leaves room for a much faster
 * service and keeps the static data, written back after every execution, near
 * 80 KB.
 *
 * The ids are stored as one newline-separated string ("\nid1\nid2\n"), oldest
 * first: a lookup is one native substring search, and a change is one property
 * assignment, which n8n's static-data proxy always notices.
 *
 * Who writes it: n8n 2.40 does not save static data changed inside a webhook
 * call (it reloads static data from its database for the execution), so the
 * window is written by the trigger's `execute()`, inside the execution, where
 * n8n saves changed static data when the execution ends. See README,
 * "Exactly once".
 *
 * The marker: a queue-mode worker runs the execution with static data it did
 * NOT load (n8n's execution snapshot leaves it out), yet saves whatever the
 * execution changed over the workflow's whole static data. Writing there
 * would erase the window and everything else (automatic registration's
 * webhookId). Activation, which n8n saves in every mode, sets the marker;
 * static data without it was not loaded, and the window is left alone.
 */
import type { IDataObject } from 'n8n-workflow';

export const WINDOW_SIZE = 2000;

function storedIds(staticData: IDataObject): string {
	const stored = staticData.seenEventIds;
	return typeof stored === 'string' && stored.startsWith('\n') && stored.endsWith('\n') ? stored : '\n';
}

/** True when the persisted window holds the id. */
export function inPersistedWindow(staticData: IDataObject, eventId: string): boolean {
	return storedIds(staticData).includes(`\n${eventId}\n`);
}

const MARKER = 'dedupeWindow';

/** Called on activation: this static data is the workflow's own, loaded and saved by n8n. */
export function markLoadedStaticData(staticData: IDataObject): void {
	if (staticData[MARKER] !== 1) staticData[MARKER] = 1;
}

/**
 * Adds the ids (oldest first) that the window lacks, keeps the newest
 * WINDOW_SIZE, and always assigns, so n8n sees the static data as changed.
 * False, and nothing written, when the static data carries no marker.
 */
export function recordInPersistedWindow(staticData: IDataObject, eventIds: Iterable<string>): boolean {
	if (staticData[MARKER] !== 1) return false;
	const stored = storedIds(staticData);
	const ids = stored === '\n' ? [] : stored.slice(1, -1).split('\n');
	// One pass over a set: an execution may merge all 2,000 ids its process claimed.
	const known = new Set(ids);
	for (const id of eventIds) {
		if (known.has(id)) continue;
		known.add(id);
		ids.push(id);
	}
	const kept = ids.slice(-WINDOW_SIZE);
	staticData.seenEventIds = kept.length === 0 ? '\n' : `\n${kept.join('\n')}\n`;
	staticData.seenEventCount = kept.length;
	return true;
}
