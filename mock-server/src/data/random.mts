/**
 * A small seeded PRNG (mulberry32): the same seed gives the same data on every
 * machine, with no dependency on faker or Math.random.
 */
export class Random {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** Where the sequence stands: `new Random(position)` continues it (a restored state folder needs that). */
	get position(): number {
		return this.state;
	}

	/** A float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** An integer in [min, max]. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	/** `count` distinct items, in random order (the items at samplePlaces). */
	sample<T>(items: readonly T[], count: number): T[] {
		return this.samplePlaces(items.length, count).map((at) => items[at]);
	}

	/**
	 * `count` distinct places in a list of `length`, in random order. Each draw picks a place among those
	 * not taken yet; the taken places are skipped by counting, not by copying the list: a copy per call made
	 * generating signals (a sample of their source's jobs) grow with jobs × signals. Taking places, not
	 * items, lets a caller sample a Map's 100,000 values without copying them into an array first.
	 */
	samplePlaces(length: number, count: number): number[] {
		const taken: number[] = [];
		// Exactly as long as needed: an array grown by push keeps room for 17 (a million records hold several each).
		const out = new Array<number>(Math.max(0, Math.min(count, length)));
		for (let n = 0; n < out.length; n++) {
			let at = Math.floor(this.next() * (length - n));
			let k = 0;
			// `taken` is ascending: each taken place at or before `at` moves it one on.
			for (; k < taken.length && taken[k] <= at; k++) at++;
			taken.splice(k, 0, at);
			out[n] = at;
		}
		return out;
	}
}
