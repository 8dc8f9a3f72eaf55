/**
 * The in-process dedupe window: the events each trigger (workflow id + node id)
 * accepted in this n8n process, newest last, at most WINDOW_SIZE per trigger,
 * each as its key (dedupe-window.ts), the form the persisted window takes.
 *
 * Why memory beside static data: a repeat can arrive while the first
 * delivery's execution still runs, before n8n has saved its static data; and
 * two deliveries of one id can arrive at the same instant. The check and the
 * claim below run with no `await` between them, so in one process exactly one
 * of them wins. It is module state on purpose: n8n loads a node's module once
 * per process and builds a new node context for every request. A trigger's
 * entry goes when the trigger is deregistered (release-claims.ts), so the map
 * holds only triggers that are active (or have executions still to store).
 */
import { WINDOW_SIZE } from './dedupe-window';

interface TriggerWindow {
	keys: Set<string>;
	/** Claimed keys that no write of the persisted window has included yet; a subset of keys. */
	unwritten: Set<string>;
	/** Claimed keys whose execution has not yet stored them (write-window.ts); a subset of keys. */
	pending: Set<string>;
	/** Deregistered: the window goes once nothing is pending (until then a running execution's save may need it). */
	released: boolean;
}

const windows = new Map<string, TriggerWindow>();

/** Claims the event for this trigger; false when this process has already claimed it. */
export function claimInProcess(triggerKey: string, eventKey: string): boolean {
	let window = windows.get(triggerKey);
	if (!window) windows.set(triggerKey, (window = { keys: new Set(), unwritten: new Set(), pending: new Set(), released: false }));
	if (window.keys.has(eventKey)) return false;
	// A delivery after deregistering: the trigger is active again.
	window.released = false;
	window.keys.add(eventKey);
	window.unwritten.add(eventKey);
	window.pending.add(eventKey);
	if (window.keys.size > WINDOW_SIZE) {
		const oldest = window.keys.values().next().value as string;
		window.keys.delete(oldest);
		window.unwritten.delete(oldest);
		window.pending.delete(oldest);
	}
	return true;
}

/** The keys of the events this process claimed for the trigger, oldest first. */
export function claimedInProcess(triggerKey: string): string[] {
	return [...(windows.get(triggerKey)?.keys ?? [])];
}

/**
 * The newest `count` of the claims followed by the given keys this process has not claimed (each once), oldest first:
 * the end of that list with every claim, which is all a write of the persisted window keeps of it. An execution
 * asks this instead of copying all WINDOW_SIZE claims into a set: at 2,000 claims that copy was the largest part of
 * the trigger's own CPU per delivery (docs/benchmarks.md, "Side by side with n8n's Webhook node").
 */
export function newestClaims(triggerKey: string, keys: Iterable<string>, count: number): string[] {
	const claimed = windows.get(triggerKey)?.keys ?? new Set<string>();
	const unclaimed = [...new Set(keys)].filter((key) => !claimed.has(key));
	if (unclaimed.length >= count) return unclaimed.slice(unclaimed.length - count);
	const newest: string[] = [];
	let skip = claimed.size - (count - unclaimed.length);
	for (const key of claimed) if (skip-- <= 0) newest.push(key);
	return [...newest, ...unclaimed];
}

/**
 * True when an execution of these events may leave the persisted window as it is: this process claimed them, a
 * write that an earlier execution made already includes them, and another claimed event's execution is still to
 * come. That one writes, or leaves it to the next in turn, so the last execution of a burst always writes every
 * claim. Under load, deliveries are claimed ahead of their executions and one write covers several (docs/guarantees.md).
 */
export function writtenBefore(triggerKey: string, eventKeys: string[]): boolean {
	const window = windows.get(triggerKey);
	if (window === undefined || eventKeys.length === 0) return false;
	if (!eventKeys.every((key) => window.keys.has(key) && !window.unwritten.has(key))) return false;
	for (const key of window.pending) if (!eventKeys.includes(key)) return true;
	return false;
}

/** A write of the persisted window included every claim of this process. */
export function wroteClaims(triggerKey: string): void {
	windows.get(triggerKey)?.unwritten.clear();
}

/** The execution of these events stored them in the persisted window. */
export function storedInProcess(triggerKey: string, eventKeys: Iterable<string>): void {
	const window = windows.get(triggerKey);
	if (!window) return;
	for (const key of eventKeys) window.pending.delete(key);
	if (window.released && window.pending.size === 0) windows.delete(triggerKey);
}

/**
 * The trigger was deregistered: its window is dropped now, or when the last pending event is stored. Until then an
 * execution still to store must merge every claim (the union that keeps an overlapping save from dropping events).
 */
export function releaseInProcess(triggerKey: string): void {
	const window = windows.get(triggerKey);
	if (!window) return;
	if (window.pending.size === 0) windows.delete(triggerKey);
	else window.released = true;
}

export function triggerKey(workflowId: string | undefined, nodeId: string): string {
	return `${workflowId ?? ''}\n${nodeId}`;
}
