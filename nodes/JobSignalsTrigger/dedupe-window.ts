/**
 * The trigger's dedupe windows: what it remembers of the events it emitted.
 *
 * In the process (process-window.ts): the last WINDOW_SIZE events per trigger, in memory, free to keep.
 *
 * Persisted: the last PERSISTED_WINDOW events, in the workflow's static data, so a restart (or a re-activation)
 * does not forget them. n8n reads the whole static data three times for every delivery and writes it once, so
 * its size is paid on every event (docs/guarantees.md, "Webhook trigger: exactly once": at 2,000 ids, 76 KB, the trigger used ×1.3 the CPU of
 * n8n's Webhook node; at 20 ids ×1.1). What it must cover is a retry that reaches n8n after a restart: the
 * service's retries end within about 27 s of the first attempt (backoff 1 + 2 + 4 s plus four 5 s timeouts),
 * about 30 deliveries at the spec's one per second. 500 covers them at a service 18 times faster.
 *
 * An event is kept as its key, 72 bits of the SHA-256 of its id (12 base64url characters), not the id itself
 * (up to 200 characters): 13 bytes per event whatever the sender's ids, 6.5 KB for the whole window. Two ids
 * share a key with a chance of about 2^-72 per pair; at 500 keys a new id is mistaken for a repeat with a chance
 * of about 1 in 10^19.
 *
 * The keys are stored as one newline-separated string ("\nkey1\nkey2\n"), oldest first: a lookup is one native
 * substring search, and a change is one property assignment, which n8n's static-data proxy always notices.
 *
 * Who writes it: n8n 2.40 does not save static data changed inside a webhook call (it reloads static data from
 * its database for the execution), so the window is written by the trigger's `execute()`, inside the execution,
 * where n8n saves changed static data when the execution ends. See docs/guarantees.md.
 *
 * The marker: a queue-mode worker runs the execution with static data it did NOT load (n8n's execution snapshot
 * leaves it out), yet saves whatever the execution changed over the workflow's whole static data. Writing there
 * would erase the window and everything else (automatic registration's webhookId). Activation, which n8n saves
 * in every mode, sets the marker; static data without it was not loaded, and the window is left alone.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

/** Events kept per trigger in the process's memory, and in n8n's database on a queue-mode worker. */
export const WINDOW_SIZE = 2000;

/** Events kept per trigger in the workflow's static data. */
export const PERSISTED_WINDOW = 500;

/** The persisted form of an event id. */
export function eventKey(eventId: string): string {
	return createHash('sha256').update(eventId).digest('base64url').slice(0, 12);
}

function storedKeys(staticData: IDataObject): string {
	const stored = staticData.seenEventKeys;
	return typeof stored === 'string' && stored.startsWith('\n') && stored.endsWith('\n') ? stored : '\n';
}

function entries(list: string): string[] {
	return list === '\n' ? [] : list.slice(1, -1).split('\n');
}

/** True when the persisted window holds the event's key. */
export function inPersistedWindow(staticData: IDataObject, key: string): boolean {
	return storedKeys(staticData).includes(`\n${key}\n`);
}

const MARKER = 'dedupeWindow';

/** True when this static data is the workflow's own (see the marker above). */
export function isLoadedStaticData(staticData: IDataObject): boolean {
	return staticData[MARKER] === 1;
}

/** Called on activation: this static data is the workflow's own, loaded and saved by n8n. */
export function markLoadedStaticData(staticData: IDataObject): void {
	if (staticData[MARKER] !== 1) staticData[MARKER] = 1;
}

/**
 * Keeps the newest PERSISTED_WINDOW of the stored keys and the given ones, and always assigns, so n8n sees the
 * static data as changed. The given keys are the newest, oldest first (the process's claims, then the delivered
 * events); a stored key that is not among them was claimed before all of them. False, and nothing written, when
 * the static data carries no marker.
 */
export function recordInPersistedWindow(staticData: IDataObject, newestKeys: Iterable<string>): boolean {
	if (!isLoadedStaticData(staticData)) return false;
	// A set keeps each key at its first place: a delivered event is also among the claims.
	const newest = new Set(newestKeys);
	// When the newest fill the window, no stored key is kept: the stored list is not read.
	const older = newest.size >= PERSISTED_WINDOW ? [] : entries(storedKeys(staticData)).filter((key) => !newest.has(key));
	const kept = [...older, ...newest].slice(-PERSISTED_WINDOW);
	staticData.seenEventKeys = kept.length === 0 ? '\n' : `\n${kept.join('\n')}\n`;
	staticData.seenEventCount = kept.length;
	return true;
}
