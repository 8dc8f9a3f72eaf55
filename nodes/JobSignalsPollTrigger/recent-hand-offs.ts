/**
 * The last hand-off of each trigger in this n8n process. n8n saves a poll's
 * position after poll() returns, while it hands the items off: with its
 * durable poll cursors in one transaction with the execution
 * (PollCursorService.commitWithExecution), with the default scheduler as the
 * workflow's static data. A poll that starts before that save lands reads the
 * position the last hand-off started from, and would emit its items again.
 * Seen in a real n8n (test/e2e/poll-trigger-durable.e2e.test.mts): after a
 * restart with durable cursors, its activation poll and the first scheduled
 * poll emitted the same 10 jobs.
 *
 * So a poll that reads the position the last hand-off started from, within
 * WINDOW_MS of it, emits nothing and leaves the position alone. Once the
 * window has passed, items still new (a hand-off whose save failed) come out:
 * late, never lost. Positions are compared, not item ids (after the mock's
 * reset the same ids come again, and those are new), and each hand-off names
 * the position it writes (handOffName), so two positions that hold the same
 * items (a trigger activated again on reset data) are never the same.
 */

export const WINDOW_MS = 60_000;

const last = new Map<string, { at: number; from: string }>();

/** Forgets hand-offs older than the window, for every trigger (a deleted workflow's too). */
function forgetOld(now: number): void {
	for (const [trigger, handOff] of last) if (now - handOff.at >= WINDOW_MS) last.delete(trigger);
}

/** Whether `position` (the saved state as read, as JSON) is the one this trigger's last hand-off in this process started from. */
export function savedBeforeLastHandOff(trigger: string, position: string): boolean {
	forgetOld(Date.now());
	return last.get(trigger)?.from === position;
}

export function rememberHandOff(trigger: string, from: string): void {
	last.set(trigger, { at: Date.now(), from });
}

let named = 0;

/** A name for a hand-off, unique in this process (and across restarts, by the clock). */
export function handOffName(): string {
	named++;
	return `${Date.now().toString(36)}-${named.toString(36)}`;
}
