/**
 * Keys (words, categories, tags, sources), each with the serials of the jobs that hold it: what
 * job-index.mts looks terms up in. Each key gets a number once, and its serials are an Int32Array
 * grown in place. The Map from each key to a `number[]` grown by `push` that this replaced cost
 * 8 bytes a serial plus slack, and arrays copied and collected as they grew: with 1,000,000 jobs
 * (about 30 keys each) the index's build was about a third of the mock's start-up.
 * A key keeps its number when its list empties (its word may come back); the keys are the data's
 * vocabulary, a few hundred words for the generated data.
 */
export class Postings {
	private readonly numbers = new Map<string, number>();
	private readonly keys: string[] = [];
	private readonly lists: Int32Array[] = [];
	private readonly lengths: number[] = [];
	/** Per key: how many serials expect() announced since the last makeRoom(), and the last one. */
	private readonly expected: number[] = [];
	private readonly lastExpected: number[] = [];

	/** How many keys there are (numbered 0 to size - 1, in the order they were first seen). */
	get size(): number {
		return this.keys.length;
	}

	keyAt(number: number): string {
		return this.keys[number];
	}

	/** The serials holding the key numbered `number` (a view: read it before the next change). */
	serialsAt(number: number): Int32Array {
		return this.lists[number].subarray(0, this.lengths[number]);
	}

	/** The serials holding the key (none for a key never seen). */
	serialsOf(key: string): Int32Array {
		const number = this.numbers.get(key);
		return number === undefined ? EMPTY : this.serialsAt(number);
	}

	/** A job's serial goes in once per key: a key repeated within one job finds it last in the list. */
	add(key: string, serial: number): void {
		const number = this.numberOf(key);
		const length = this.lengths[number];
		let list = this.lists[number];
		if (length > 0 && list[length - 1] === serial) return;
		if (length === list.length) {
			list = grown(list);
			this.lists[number] = list;
		}
		list[length] = serial;
		this.lengths[number] = length + 1;
	}

	/** Announces that `add(key, serial)` will follow, so that makeRoom() can size each list once (see JobIndex.addAll). */
	expect(key: string, serial: number): void {
		const number = this.numberOf(key);
		if (this.lastExpected[number] === serial) return;
		this.lastExpected[number] = serial;
		this.expected[number]++;
	}

	/** Makes each list long enough for the serials announced by expect(), in one copy. */
	makeRoom(): void {
		this.expected.forEach((count, number) => {
			if (count === 0) return;
			const list = new Int32Array(this.lengths[number] + count);
			list.set(this.serialsAt(number));
			this.lists[number] = list;
			this.expected[number] = 0;
		});
	}

	drop(key: string, serial: number): void {
		const number = this.numbers.get(key);
		if (number === undefined) return;
		const length = this.lengths[number];
		const list = this.lists[number];
		const at = list.subarray(0, length).indexOf(serial);
		if (at < 0) return;
		// Order within a list does not matter: move the last entry into the hole.
		list[at] = list[length - 1];
		this.lengths[number] = length - 1;
	}

	clear(): void {
		this.numbers.clear();
		this.keys.length = 0;
		this.lists.length = 0;
		this.lengths.length = 0;
		this.expected.length = 0;
		this.lastExpected.length = 0;
	}

	private numberOf(key: string): number {
		let number = this.numbers.get(key);
		if (number === undefined) {
			number = this.keys.length;
			this.numbers.set(key, number);
			this.keys.push(key);
			this.lists.push(EMPTY);
			this.lengths.push(0);
			this.expected.push(0);
			this.lastExpected.push(-1);
		}
		return number;
	}
}

const EMPTY = new Int32Array(0);

/** A quarter more room (at least 16): copies stay linear in the serials, and slack under a quarter. */
function grown(list: Int32Array): Int32Array {
	const next = new Int32Array(list.length + Math.max(16, list.length >>> 2));
	next.set(list);
	return next;
}
