/**
 * The poll's time budget (IPollFunctions.getPollBudgetMs): a walk starts no
 * new page once what is left would not cover a quarter of the budget or twice
 * the slowest page so far (pacing waits and retries included), so the poll
 * returns what it has before the engine abandons the tick.
 */
export class TimeBudget {
	private readonly started = Date.now();
	private slowest = 0;

	constructor(private readonly ms: number) {}

	async time<T>(work: Promise<T>): Promise<T> {
		const begun = Date.now();
		try {
			return await work;
		} finally {
			this.slowest = Math.max(this.slowest, Date.now() - begun);
		}
	}

	spent(): boolean {
		const left = this.ms - (Date.now() - this.started);
		return left < Math.max(this.ms / 4, 2 * this.slowest);
	}
}
