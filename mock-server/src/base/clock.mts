/**
 * The mock's clock, one per service, handed to everything that reads the time or waits: the
 * cycle runner (records' created_at and updated_at, signal dates, job board counts' times), webhook
 * settings and subscribers, the delivery engine (envelopes, the log's started_at, the batch
 * spacing, retries), the request journal's time, the rate limiter and the timed cycles. A test freezes it, sets it and moves it on.
 *
 * Two readings:
 * - `now()`, the date: the wall clock, or where a test set it;
 * - `elapsed()`, time passing: it runs with the wall clock while the clock runs, stands while it is
 *   frozen, and moves by `advance()`. Setting the date is a jump, not time passing, so waits count
 *   in `elapsed()`: a clock set a year back does not hold a retry for a year, and one set a year on
 *   does not send every queued delivery at once.
 *
 * While the clock is frozen a timer goes only when `advance()` reaches its due time (as with test
 * frameworks' fake timers: even a timer due now waits for `advance(0)`); `advance` fires the timers
 * due by the new time in due order, each with the clock at its due time, the ones they set too.
 * While it runs, timers are node timers and `advance` moves the date and every timer's due time on.
 *
 * Real durations stay real: how long an attempt took, its 5 s timeout (it measures the receiver),
 * a fault's latency.
 */

/** The latest date the clock takes (9999-12-31T23:59:59.999Z): past it dates lose their ISO form. */
export const MAX_CLOCK_MS = 253_402_300_799_999;

export interface ClockState {
	/** The clock's date, ISO 8601. */
	now: string;
	now_ms: number;
	frozen: boolean;
	/** How far the clock's date is from the wall clock's (0 on the wall clock). */
	offset_ms: number;
	/** Timers waiting: queued deliveries and retries, the next timed cycle. */
	timers: number;
	/** Time to pass (`advance`) before the next timer goes; null when none waits. */
	next_timer_in_ms: number | null;
}

/** A timer set on the clock, for `clearTimeout`. */
export interface ClockTimer {
	readonly due: number;
}

interface Timer extends ClockTimer {
	readonly order: number;
	readonly run: () => void;
	readonly unref: boolean;
	handle?: ReturnType<typeof setTimeout>;
}

export class MockClock {
	/** Set while frozen: the date and `elapsed()` where the clock stands. */
	private frozen: { now: number; elapsed: number } | undefined;
	/** While running: the date is the wall clock plus this. */
	private offsetMs = 0;
	/** While running: `elapsed()` was `elapsed` at `performance.now()` = `since`. */
	private running = { since: performance.now(), elapsed: 0 };
	/** Waiting timers in due order (ties: the order they were set), so the next is always the first. */
	private readonly timers: Timer[] = [];
	private order = 0;

	/** The clock's date, milliseconds since the epoch. */
	now(): number {
		return this.frozen ? this.frozen.now : Date.now() + this.offsetMs;
	}

	/** The date as Unix seconds, as the service's records carry it. */
	nowSeconds(): number {
		return Math.floor(this.now() / 1000);
	}

	/**
	 * Time passed on this clock (ms since it was made): running time and advances, never jumps. Whole milliseconds, so
	 * that sums stay exact: with fractions, advancing 59,999 then 1 ms could fall a rounding error short of a 60 s window.
	 */
	elapsed(): number {
		return this.frozen ? this.frozen.elapsed : this.running.elapsed + Math.floor(performance.now() - this.running.since);
	}

	isFrozen(): boolean {
		return this.frozen !== undefined;
	}

	/** Stops the clock at `at` (a Date, epoch milliseconds or an ISO 8601 string), or where it stands. Throws RangeError for a bad date. */
	freeze(at?: Date | number | string): void {
		this.set(at === undefined ? this.now() : toMs(at), true);
	}

	/**
	 * Sets the date (a jump: no timer goes) and whether the clock stands there or runs on from it.
	 * Timers keep the time they had left to wait.
	 */
	set(atMs: number, frozen: boolean): void {
		checkDate(atMs);
		const elapsed = this.elapsed();
		if (frozen) {
			this.frozen = { now: atMs, elapsed };
			for (const timer of this.timers) clearTimeout(timer.handle);
			return;
		}
		this.offsetMs = atMs - Date.now();
		this.runFrom(elapsed);
	}

	/**
	 * Time passes: the date and `elapsed()` move `ms` on, and the timers due by then go (frozen: now,
	 * in due order, each with the clock at its due time; running: at once, in due order). Throws
	 * RangeError for `ms` that is not a whole number ≥ 0, or that would take the date past MAX_CLOCK_MS.
	 */
	advance(ms: number): void {
		if (!(Number.isInteger(ms) && ms >= 0)) throw new RangeError(`advance takes whole milliseconds ≥ 0, got ${ms}`);
		checkDate(this.now() + ms);
		const frozen = this.frozen;
		if (frozen === undefined) {
			this.offsetMs += ms;
			this.running.elapsed += ms;
			for (const timer of this.timers) this.arm(timer);
			return;
		}
		const target = frozen.elapsed + ms;
		for (let next = this.timers.at(0); next !== undefined && next.due <= target; next = this.timers.at(0)) {
			this.standAt(frozen, Math.max(next.due, frozen.elapsed));
			this.fire(next);
		}
		this.standAt(frozen, target);
	}

	/** Back to the wall clock, running; timers keep the time they had left to wait. */
	release(): void {
		const elapsed = this.elapsed();
		this.offsetMs = 0;
		this.runFrom(elapsed);
	}

	/**
	 * Runs `run` once `delayMs` of the clock's time has passed (rounded up to a whole millisecond, as `elapsed()` counts).
	 * `unref`: the timer alone does not keep the process alive.
	 */
	setTimeout(run: () => void, delayMs: number, { unref = false }: { unref?: boolean } = {}): ClockTimer {
		const timer: Timer = { due: this.elapsed() + Math.ceil(Math.max(0, delayMs)), order: this.order++, run, unref };
		// After every timer due no later: a binary search, since a full queue holds thousands.
		let lo = 0;
		let hi = this.timers.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (this.timers[mid].due <= timer.due) lo = mid + 1;
			else hi = mid;
		}
		this.timers.splice(lo, 0, timer);
		this.arm(timer);
		return timer;
	}

	clearTimeout(timer: ClockTimer | undefined): void {
		if (timer !== undefined) this.remove(timer as Timer);
	}

	state(): ClockState {
		const now = this.now();
		const next = this.timers.at(0);
		return {
			now: new Date(now).toISOString(),
			now_ms: now,
			frozen: this.isFrozen(),
			offset_ms: now - Date.now(),
			timers: this.timers.length,
			next_timer_in_ms: next === undefined ? null : Math.max(0, next.due - this.elapsed()),
		};
	}

	private runFrom(elapsed: number): void {
		const wasFrozen = this.frozen !== undefined;
		this.frozen = undefined;
		this.running = { since: performance.now(), elapsed };
		if (wasFrozen) for (const timer of this.timers) this.arm(timer);
	}

	/** Moves a frozen clock on to `elapsed`, its date with it. */
	private standAt(frozen: { now: number; elapsed: number }, elapsed: number): void {
		frozen.now += elapsed - frozen.elapsed;
		frozen.elapsed = elapsed;
	}

	/** (Re)sets the node timer of a running clock; a frozen clock has none. */
	private arm(timer: Timer): void {
		clearTimeout(timer.handle);
		timer.handle = undefined;
		if (this.frozen) return;
		timer.handle = setTimeout(() => this.fire(timer), Math.max(0, timer.due - this.elapsed()));
		if (timer.unref) timer.handle.unref();
	}

	private fire(timer: Timer): void {
		if (this.remove(timer)) timer.run();
	}

	/** Takes a timer out (false if it already went or was cleared). */
	private remove(timer: Timer): boolean {
		const index = this.timers.indexOf(timer);
		if (index === -1) return false;
		this.timers.splice(index, 1);
		clearTimeout(timer.handle);
		return true;
	}
}

function toMs(at: Date | number | string): number {
	const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
	checkDate(ms);
	return ms;
}

function checkDate(ms: number): void {
	if (!(Number.isInteger(ms) && ms >= 0 && ms <= MAX_CLOCK_MS)) {
		throw new RangeError(`the clock takes dates from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, got ${Number.isFinite(ms) ? ms : 'an unreadable date'}`);
	}
}
