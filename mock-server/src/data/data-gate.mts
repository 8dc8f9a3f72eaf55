/**
 * How a cycle shares the event loop with the API: it writes a share per turn, and
 * the data gate keeps every reader off the data while it works, so none sees half a cycle.
 *
 * The share, in the steps of base/work.mts (STEPS_PER_TURN a turn). A record write (a job added,
 * changed or deleted, a signal, a source's new count) costs 0.05–0.5 ms here:
 * the per-account lists and the signal list are 100,000-entry arrays a write
 * splices, and the search index takes the job's words. Counting writes, not
 * reading the clock, keeps the slicing the same on an idle and a busy machine,
 * and lets a test check it without timing anything.
 */
import { STEPS_PER_TURN } from '../base/work.mts';

/** Record writes per turn: at most ~4 ms of writes, a tenth of the 50 ms goal. */
export const WRITES_PER_TURN = 8;
export const WRITE_STEPS = STEPS_PER_TURN / WRITES_PER_TURN;
/** Copying 100,000 jobs out of their map costs ~1–2 ms: a read is about 1/40,000 of a turn. */
export const READ_STEPS = STEPS_PER_TURN / 40_000;

/**
 * Keeps a cycle atomic as the API sees it while the cycle gives the
 * event loop up between slices (cycles/cycle.mts): a read/write lock over the
 * data. Service requests read (many at once); a cycle, a chosen event and a
 * reset write (one at a time, alone). A writer waits for the reads in progress
 * to end, and reads that arrive while a writer waits or works wait for it, so a
 * reader sees the data before a cycle or after it, never half of one.
 *
 * Why a lock and not "compute the changes in slices, then apply them in one
 * step": a cycle's draws read the data its earlier changes made (an update may
 * pick a job created a moment before, a new signal lists its source's jobs), so
 * computing them apart from the store would need a second store beside it, and
 * applying 5,000 changes is itself far more than a turn's share. The cost of the
 * lock: a request that arrives during a large cycle waits for it (the loop stays free).
 */
export class DataGate {
	private readers = 0;
	private writing = false;
	/** Writers waiting, first come first served; while any waits, new readers wait too. */
	private readonly writers: Array<() => void> = [];
	private readonly waitingReaders: Array<() => void> = [];

	/** Runs `read` once no writer works or waits. */
	async reading<T>(read: () => T | Promise<T>): Promise<T> {
		if (this.busy) await new Promise<void>((enter) => this.waitingReaders.push(enter));
		else this.readers++;
		try {
			return await read();
		} finally {
			this.readers--;
			if (this.readers === 0) this.admitWriter();
		}
	}

	/** Runs `write` alone: after the reads in progress, before any read that arrives meanwhile. */
	async writingAlone<T>(write: () => T | Promise<T>): Promise<T> {
		if (this.busy || this.readers > 0) await new Promise<void>((enter) => this.writers.push(enter));
		else this.writing = true;
		try {
			return await write();
		} finally {
			this.writing = false;
			// The readers that waited go first, then the next writer: neither side can starve the other.
			const readers = this.waitingReaders.splice(0);
			this.readers += readers.length;
			for (const enter of readers) enter();
			if (this.readers === 0) this.admitWriter();
		}
	}

	/** Whether a writer works or waits (new readers then wait; a timed cycle is not queued behind another). */
	get busy(): boolean {
		return this.writing || this.writers.length > 0;
	}

	private admitWriter(): void {
		const writer = this.writers.shift();
		if (writer === undefined) return;
		this.writing = true;
		writer();
	}
}
