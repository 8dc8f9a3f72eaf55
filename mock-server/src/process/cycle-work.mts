/**
 * A processing cycle's share of work per turn of the event loop, in the steps
 * of search/work.ts (STEPS_PER_TURN a turn). A record write (a job added,
 * changed or deleted, a signal, a source's new count) costs 0.05–0.5 ms here:
 * the per-account lists and the signal list are 100,000-entry arrays a write
 * splices, and the search index takes the job's words. Counting writes, not
 * reading the clock, keeps the slicing the same on an idle and a busy machine,
 * and lets a test check it without timing anything.
 */
import { STEPS_PER_TURN } from '../search/work.mts';

/** Record writes per turn: at most ~4 ms of writes, a tenth of the 50 ms goal. */
export const WRITES_PER_TURN = 8;
export const WRITE_STEPS = STEPS_PER_TURN / WRITES_PER_TURN;
/** Copying 100,000 jobs out of their map costs ~1–2 ms: a read is about 1/40,000 of a turn. */
export const READ_STEPS = STEPS_PER_TURN / 40_000;
