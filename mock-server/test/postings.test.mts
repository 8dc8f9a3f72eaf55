// The search index's postings (typed lists grown in place, or sized at once by expect/makeRoom) hold exactly the serials a plain key → set model holds, through adds, bulk adds and drops.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Postings } from '../src/search/postings.mts';

type Step = { kind: 'add'; key: string; serial: number } | { kind: 'drop'; key: string; serial: number } | { kind: 'bulk'; jobs: string[][] };

const key = fc.constantFrom('a', 'b', 'c', 'python', 'data science', '');
const step: fc.Arbitrary<Step> = fc.oneof(
	fc.record({ kind: fc.constant('add' as const), key, serial: fc.nat({ max: 60 }) }),
	fc.record({ kind: fc.constant('drop' as const), key, serial: fc.nat({ max: 60 }) }),
	fc.record({ kind: fc.constant('bulk' as const), jobs: fc.array(fc.array(key, { maxLength: 5 }), { maxLength: 40 }) }),
);

describe('postings', () => {
	it('property: each key lists each of its serials once, whatever the order of adds, bulk adds and drops', () => {
		fc.assert(
			fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
				const postings = new Postings();
				const model = new Map<string, Set<number>>();
				const serialsOf = (k: string) => model.get(k) ?? model.set(k, new Set()).get(k)!;
				// Bulk serials come after every serial used so far, as the index numbers new jobs.
				let next = 100;
				for (const s of steps) {
					if (s.kind === 'add') {
						// add() puts a serial in once only when it is the key's newest: the index adds a job's keys together.
						if (serialsOf(s.key).has(s.serial)) continue;
						postings.add(s.key, s.serial);
						serialsOf(s.key).add(s.serial);
					} else if (s.kind === 'drop') {
						postings.drop(s.key, s.serial);
						serialsOf(s.key).delete(s.serial);
					} else {
						const serials = s.jobs.map(() => next++);
						s.jobs.forEach((keys, i) => keys.forEach((k) => postings.expect(k, serials[i])));
						postings.makeRoom();
						s.jobs.forEach((keys, i) => keys.forEach((k) => postings.add(k, serials[i])));
						s.jobs.forEach((keys, i) => keys.forEach((k) => serialsOf(k).add(serials[i])));
					}
				}
				for (const [k, serials] of model) expect([...postings.serialsOf(k)].sort((a, b) => a - b)).toEqual([...serials].sort((a, b) => a - b));
				const numbered = Array.from({ length: postings.size }, (_, n) => postings.keyAt(n));
				expect(new Set(numbered).size).toBe(numbered.length);
				for (const k of numbered) expect(postings.serialsAt(numbered.indexOf(k))).toEqual(postings.serialsOf(k));
			}),
			{ numRuns: 500 },
		);
	});
});
