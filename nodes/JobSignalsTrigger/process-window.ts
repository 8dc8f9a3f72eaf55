/**
 * The in-process dedupe window: the ids each trigger (workflow id + node id)
 * accepted in this n8n process, newest last, at most WINDOW_SIZE per trigger.
 *
 * Why memory beside static data: a repeat can arrive while the first
 * delivery's execution still runs, before n8n has saved its static data; and
 * two deliveries of one id can arrive at the same instant. The check and the
 * claim below run with no `await` between them, so in one process exactly one
 * of them wins. It is module state on purpose: n8n loads a node's module once
 * per process and builds a new node context for every request. A trigger's
 * entry goes when the trigger is deregistered (release-claims.ts), so the map
 * holds only triggers that are active (or have executions still to record).
 */
import { WINDOW_SIZE } from './dedupe-window';

interface TriggerWindow {
	ids: Set<string>;
	/** Claimed ids whose execution has not yet recorded them (record-execution.ts); a subset of ids. */
	pending: Set<string>;
	/** Deregistered: the window goes once nothing is pending (until then a running execution's save may need it). */
	released: boolean;
}

const windows = new Map<string, TriggerWindow>();

/** Claims the id for this trigger; false when this process has already claimed it. */
export function claimInProcess(triggerKey: string, eventId: string): boolean {
	let window = windows.get(triggerKey);
	if (!window) windows.set(triggerKey, (window = { ids: new Set(), pending: new Set(), released: false }));
	if (window.ids.has(eventId)) return false;
	// A delivery after deregistering: the trigger is active again.
	window.released = false;
	window.ids.add(eventId);
	window.pending.add(eventId);
	if (window.ids.size > WINDOW_SIZE) {
		const oldest = window.ids.values().next().value as string;
		window.ids.delete(oldest);
		window.pending.delete(oldest);
	}
	return true;
}

/** The ids this process claimed for the trigger, oldest first. */
export function claimedInProcess(triggerKey: string): string[] {
	return [...(windows.get(triggerKey)?.ids ?? [])];
}

/** The execution of these ids recorded them in the persisted window. */
export function recordedInProcess(triggerKey: string, eventIds: Iterable<string>): void {
	const window = windows.get(triggerKey);
	if (!window) return;
	for (const id of eventIds) window.pending.delete(id);
	if (window.released && window.pending.size === 0) windows.delete(triggerKey);
}

/**
 * The trigger was deregistered: its window is dropped now, or when the last pending id is recorded. Until then an
 * execution still to record must merge every claim (the union that keeps an overlapping save from dropping ids).
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
