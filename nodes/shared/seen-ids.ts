/**
 * The ids a node has seen (passed on), in n8n's database, through the deduplication helpers n8n gives a
 * node inside an execution: the webhook trigger's delivered event ids on queue-mode workers
 * (JobSignalsTrigger/write-window.ts) and Deduplication → Keep New Jobs and Signals' job and signal ids. n8n 2.40.7's helper reads the node's
 * whole row and writes it back, so when two workers store ids at once, the later write can drop the ids the
 * other one had just added (one-at-a-time.ts keeps the executions of one worker apart, not of two). Each
 * store is therefore asserted again after every other write of that moment has landed: an id that comes
 * back as new had been dropped, and is now stored again. This runs after the execution has ended
 * and needs no answer; a worker that stops first leaves the stored ids as they are.
 */
import { sleep, type IExecuteFunctions } from 'n8n-workflow';
import { oneAtATime } from './one-at-a-time';

/** Longer than any other worker's read-then-write of the row takes, so its write has landed when we look again. */
const REASSERT_AFTER_MS = 2000;
/** Each look is a write too, and can drop another worker's ids in turn; they look again themselves. */
const REASSERTS = 3;

/**
 * Per key, while a check of it is pending in this process: how many new ids this process has stored under it. The
 * node's row keeps the last `maxEntries` ids it was given, so an id followed by that many new ones was pushed out by the
 * bound, not dropped by another worker, and is not stored again (that would push out newer ones).
 */
interface Tally {
	stored: number;
	pending: number;
}
const tallies = new Map<string, Tally>();

/** Stores the ids, inside the key's one-at-a-time task: those that were new, and the key's tally right after them. */
async function storeCounted(context: IExecuteFunctions, key: string, ids: string[], maxEntries: number) {
	const fresh = (await storeOnce(context, ids, maxEntries)).new.map(String);
	const tally = tallies.get(key) ?? { stored: 0, pending: 0 };
	tally.stored += fresh.length;
	return { fresh, tally, mark: tally.stored };
}

/**
 * Stores the ids in the node's row of seen ids (`key`: the node in this process, for one-at-a-time.ts), which keeps the last
 * `maxEntries` ids it is given (n8n appends the new ones in the order given, so the caller gives the ones to keep last),
 * and answers which of them were new; then, in the background, asserts again those the row holds.
 */
export async function rememberSeenIds(context: IExecuteFunctions, key: string, ids: string[], maxEntries: number): Promise<string[]> {
	const { fresh, tally, held, mark } = await oneAtATime(key, async () => {
		const stored = await storeCounted(context, key, ids, maxEntries);
		// More new ids than the row holds: the first ones are out of it already.
		const held = stored.fresh.slice(-maxEntries);
		if (held.length > 0) {
			stored.tally.pending++;
			tallies.set(key, stored.tally);
		}
		return { ...stored, held };
	});
	if (held.length > 0) void reassert(context, key, held, maxEntries, 1, mark).finally(() => release(key, tally));
	return fresh;
}

function release(key: string, tally: Tally): void {
	if (--tally.pending === 0 && tallies.get(key) === tally) tallies.delete(key);
}

/** `ids` were the last ones stored when the tally stood at `mark`. */
async function reassert(context: IExecuteFunctions, key: string, ids: string[], maxEntries: number, round: number, mark: number): Promise<void> {
	if (ids.length === 0 || round > REASSERTS) return;
	await sleep(REASSERT_AFTER_MS * round);
	const node = context.getNode().name;
	try {
		const again = await oneAtATime(key, async () => {
			// Each id stored here since has pushed one out of the row, ours the oldest first.
			const since = (tallies.get(key)?.stored ?? mark) - mark;
			const held = ids.slice(Math.max(0, ids.length - (maxEntries - since)));
			return held.length === 0 ? { fresh: [], mark } : await storeCounted(context, key, held, maxEntries);
		});
		if (again.fresh.length === 0) return;
		context.logger.debug(`${node}: ${again.fresh.length} id(s) were dropped from its stored seen ids by another worker's write and are stored again`);
		await reassert(context, key, again.fresh, maxEntries, round + 1, again.mark);
	} catch (error) {
		context.logger.warn(`${node}: could not check its stored seen ids again: ${(error as Error).message}`);
	}
}

/**
 * n8n 2.40.7's helper reads the node's row and inserts it when there is none, so two executions that store
 * the first ids at once can both insert, and one fails on the primary key (seen in queue mode). Its second try
 * finds the row and adds to it.
 */
async function storeOnce(context: IExecuteFunctions, ids: string[], maxEntries: number) {
	const store = () => context.helpers.checkProcessedAndRecord(ids, 'node', { mode: 'entries', maxEntries });
	try {
		return await store();
	} catch {
		return await store();
	}
}
