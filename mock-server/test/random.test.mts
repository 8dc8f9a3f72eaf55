import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Random } from '../src/data/random.mts';

/** The plain way to draw `count` distinct items: take each from a shrinking copy of the list. */
function sampleByCopy<T>(random: Random, items: readonly T[], count: number): T[] {
	const pool = [...items];
	const out: T[] = [];
	while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(random.next() * pool.length), 1)[0]);
	return out;
}

describe('Random.sample', () => {
	it('draws what taking from a shrinking copy draws, for the same seed (so a seed gives the same data)', () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 70 }), (seed, length, count) => {
				const items = Array.from({ length }, (_, i) => i);
				const drawn = new Random(seed).sample(items, count);
				expect(drawn).toEqual(sampleByCopy(new Random(seed), items, count));
				expect(new Set(drawn).size).toBe(Math.min(count, length));
			}),
		);
	});
});
