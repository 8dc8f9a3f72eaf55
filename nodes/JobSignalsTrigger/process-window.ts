/**
 * The in-process dedupe window: the ids each trigger (workflow id + node id)
 * accepted in this n8n process, newest last, at most WINDOW_SIZE per trigger.
 *
 * Why memory beside static data: a repeat can arrive while the first
 * delivery's execution still runs, before n8n has saved its static data; and
 * two deliveries of one id can arrive at the same instant. The check and the
 * claim below run with no `await` between them, so in one process exactly one
 * of them wins. It is module state on purpose: n8n loads a node's module once
 * per process and builds a new node context for every request.
 */
import { WINDOW_SIZE } from './dedupe-window';

const windows = new Map<string, Set<string>>();

function windowOf(triggerKey: string): Set<string> {
	let ids = windows.get(triggerKey);
	if (!ids) windows.set(triggerKey, (ids = new Set()));
	return ids;
}

/** Claims the id for this trigger; false when this process has already claimed it. */
export function claimInProcess(triggerKey: string, eventId: string): boolean {
	const ids = windowOf(triggerKey);
	if (ids.has(eventId)) return false;
	ids.add(eventId);
	if (ids.size > WINDOW_SIZE) ids.delete(ids.values().next().value as string);
	return true;
}

/** The ids this process claimed for the trigger, oldest first. */
export function claimedInProcess(triggerKey: string): string[] {
	return [...windowOf(triggerKey)];
}

export function triggerKey(workflowId: string | undefined, nodeId: string): string {
	return `${workflowId ?? ''}\n${nodeId}`;
}
