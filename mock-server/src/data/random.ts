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

	/** `count` distinct items, in random order. */
	sample<T>(items: readonly T[], count: number): T[] {
		const pool = [...items];
		const out: T[] = [];
		while (out.length < count && pool.length > 0) {
			out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]);
		}
		return out;
	}
}
