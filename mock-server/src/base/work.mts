/**
 * The mock's long loops share the event loop with every other request, a share per turn.
 *
 * Records: the mock's 100,000-record lists cost ~0.3 µs per record read (the records are
 * scattered in memory), so a full pass blocks the event loop 30–70 ms, and several times that on
 * a busy machine. `inSlices` reads SLICE records, then gives the turn up.
 *
 * Steps: the work of one job search (one step: about one posting serial set in a mask, 1–3 ns
 * here), a cycle's writes (data/data-gate.mts), a delivery queued: `Work` counts
 * them and pauses once a turn's share is spent, however hostile a search's terms. Counting steps,
 * not reading the clock, keeps the slicing the same on an idle and a busy machine, and a test can
 * check it without timing anything.
 */

/** Records per slice: about 1 ms of work on one core, 50× under the 50 ms goal. */
export const SLICE = 2000;

export type Pause = () => Promise<void>;

export const nextTurn: Pause = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function inSlices<T>(items: ArrayLike<T>, visit: (item: T) => void, pause: Pause = nextTurn): Promise<void> {
	for (let start = 0; start < items.length; start += SLICE) {
		if (start > 0) await pause();
		const end = Math.min(items.length, start + SLICE);
		for (let i = start; i < end; i++) visit(items[i]);
	}
}

/** A few ms of work on one idle core: under a tenth of the 50 ms goal. */
export const STEPS_PER_TURN = 1_000_000;
/** Reading one job record costs about what inSlices allows SLICE of per turn. */
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
