/**
 * A node's record of the ids it passed on, in n8n's database, through the deduplication helpers n8n gives a
 * node inside an execution: the webhook trigger's delivered event ids on queue-mode workers
 * (JobSignalsTrigger/record-execution.ts) and Deduplication → Keep New Jobs and Signals' job and signal ids. n8n 2.40.7's helper reads the node's
 * whole row and writes it back, so when two workers record at once, the later write can drop the ids the
 * other one had just added (one-at-a-time.ts keeps the executions of one worker apart, not of two). Each
 * recording is therefore asserted again after every other write of that moment has landed: an id that comes
 * back as new had been dropped, and is now in the record again. This runs after the execution has ended
 * and needs no answer; a worker that stops first leaves the record as it is.
 */
import { sleep, type IExecuteFunctions } from 'n8n-workflow';
import { oneAtATime } from './one-at-a-time';

/** Longer than any other worker's read-then-write of the row takes, so its write has landed when we look again. */
const REASSERT_AFTER_MS = 2000;
/** Each look is a write too, and can drop another worker's ids in turn; they look again themselves. */
const REASSERTS = 3;

/**
 * Records the ids in the node's record (`key`: the node in this process, for one-at-a-time.ts), which keeps the newest
 * `maxEntries`, and answers which of them were new; then, in the background, asserts them again.
 */
export async function recordInDatabase(context: IExecuteFunctions, key: string, ids: string[], maxEntries: number): Promise<string[]> {
	const recorded = await oneAtATime(key, () => recordOnce(context, ids, maxEntries));
	const fresh = recorded.new.map(String);
	void reassert(context, key, fresh, maxEntries, 1);
	return fresh;
}

async function reassert(context: IExecuteFunctions, key: string, ids: string[], maxEntries: number, round: number): Promise<void> {
	if (ids.length === 0 || round > REASSERTS) return;
	await sleep(REASSERT_AFTER_MS * round);
	const node = context.getNode().name;
	try {
		const dropped = (await oneAtATime(key, () => recordOnce(context, ids, maxEntries))).new.map(String);
		if (dropped.length === 0) return;
		context.logger.debug(`${node}: ${dropped.length} id(s) were dropped from its database record by another worker's write and are recorded again`);
		await reassert(context, key, dropped, maxEntries, round + 1);
	} catch (error) {
		context.logger.warn(`${node}: could not check its database record of ids again: ${(error as Error).message}`);
	}
}

/**
 * n8n 2.40.7's helper reads the node's row and inserts it when there is none, so two executions that record
 * the first ids at once can both insert, and one fails on the primary key (seen in queue mode). Its second try
 * finds the row and adds to it.
 */
async function recordOnce(context: IExecuteFunctions, ids: string[], maxEntries: number) {
	const record = () => context.helpers.checkProcessedAndRecord(ids, 'node', { mode: 'entries', maxEntries });
	try {
		return await record();
	} catch {
		return await record();
	}
}
