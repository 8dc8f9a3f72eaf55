/**
 * The work of one job search, counted in steps (one step: about one posting
 * serial set in a mask, 1–3 ns here), so that the search pauses for other
 * requests once a turn's share is spent, however hostile its terms. Counting
 * steps, not reading the clock, keeps the slicing the same on an idle and a
 * busy machine, and a test can check it without timing anything.
 */
import { nextTurn, SLICE, type Pause } from '../data/in-slices.mts';

/** About 2–4 ms of work on this 2-core machine when idle: under a tenth of the 50 ms goal. */
export const STEPS_PER_TURN = 1_000_000;
/** Reading one job record costs about what in-slices.ts allows SLICE of per turn. */
export const JOB_READ_STEPS = STEPS_PER_TURN / SLICE;
/** One term's substring check against a job's text (a few hundred characters). */
export const TERM_CHECK_STEPS = 100;

export class Work {
	private spent = 0;
	/** The most steps spent between two pauses (read by tests and the benchmark). */
	maxPerTurn = 0;

	constructor(private readonly pause: Pause = nextTurn) {}

	/** Counts the steps; returns the pause to await once the turn's share is spent, else undefined (no await needed). */
	spend(steps: number): Promise<void> | undefined {
		this.spent += steps;
		if (this.spent > this.maxPerTurn) this.maxPerTurn = this.spent;
		if (this.spent < STEPS_PER_TURN) return undefined;
		this.spent = 0;
		return this.pause();
	}
}
