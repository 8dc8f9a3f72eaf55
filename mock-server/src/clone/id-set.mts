/**
 * The ids a list has given so far, to leave out a record a later page repeats (offset and page
 * numbers shift when the account changes during the walk), in 8 bytes a slot rather than a string
 * each: a 64-bit fingerprint of the id (two 32-bit FNV-1a hashes of its UTF-16 units, each mixed),
 * in an open-addressing table at most 70% full, so about 11 to 23 bytes an id (16 MB for a million).
 * Two ids share a fingerprint with a chance of about n² / 2^65 (3 in 100 million for a million ids);
 * the later one is then left out as a repeat.
 */
const MAX_LOAD = 0.7;
const FIRST_SLOTS = 1024;

export class IdSet {
	private high = new Uint32Array(FIRST_SLOTS);
	private low = new Uint32Array(FIRST_SLOTS);
	size = 0;

	/** Adds `id`; false when it was there. */
	add(id: string): boolean {
		const [high, low] = fingerprint(id);
		if (this.place(high, low)) {
			this.size++;
			if (this.size > this.high.length * MAX_LOAD) this.grow();
			return true;
		}
		return false;
	}

	/** Bytes the table takes. */
	get bytes(): number {
		return this.high.byteLength + this.low.byteLength;
	}

	/** Puts the fingerprint in its slot; false when it is there already. */
	private place(high: number, low: number): boolean {
		const mask = this.high.length - 1;
		for (let slot = low & mask; ; slot = (slot + 1) & mask) {
			if (this.high[slot] === 0 && this.low[slot] === 0) {
				this.high[slot] = high;
				this.low[slot] = low;
				return true;
			}
			if (this.high[slot] === high && this.low[slot] === low) return false;
		}
	}

	private grow(): void {
		const [high, low] = [this.high, this.low];
		this.high = new Uint32Array(high.length * 2);
		this.low = new Uint32Array(low.length * 2);
		for (let i = 0; i < high.length; i++) if (high[i] !== 0 || low[i] !== 0) this.place(high[i], low[i]);
	}
}

function fingerprint(id: string): [number, number] {
	let a = 0x811c9dc5;
	let b = 0x01000193 ^ id.length;
	for (let i = 0; i < id.length; i++) {
		const unit = id.charCodeAt(i);
		a = Math.imul(a ^ unit, 0x01000193);
		b = Math.imul(b ^ unit, 0x01000193) + 0x9e3779b9;
	}
	const low = mix(a);
	// (0, 0) marks an empty slot.
	return [mix(b ^ 0x5bd1e995), low === 0 ? 1 : low];
}

/** Spreads every input bit over the output (the finalizer step of 32-bit hashing). */
function mix(h: number): number {
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return h >>> 0;
}
