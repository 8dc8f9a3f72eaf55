// An execution's write of the persisted window (write-window.ts) reads only the newest PERSISTED_WINDOW claims
// (newestClaims) and skips the stored list when they fill the window. It must keep exactly what the write over every
// claim kept: the stored keys, then the claims, then the delivered keys not claimed, the newest PERSISTED_WINDOW of them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IDataObject } from 'n8n-workflow';
import { PERSISTED_WINDOW, recordInPersistedWindow, WINDOW_SIZE } from '../../nodes/JobSignalsTrigger/dedupe-window';
import { claimedInProcess, claimInProcess, newestClaims, releaseInProcess, triggerKey } from '../../nodes/JobSignalsTrigger/process-window';

/** What the write kept before newestClaims: every claim and delivered key through one set, the stored list always read. */
function keptOverEveryClaim(stored: string[], claims: string[], delivered: string[]): string[] {
	const newest = new Set([...claims, ...delivered]);
	return [...stored.filter((key) => !newest.has(key)), ...newest].slice(-PERSISTED_WINDOW);
}

const storedData = (stored: string[]): IDataObject => ({ dedupeWindow: 1, seenEventKeys: stored.length === 0 ? '\n' : `\n${stored.join('\n')}\n`, seenEventCount: stored.length });
const keptIn = (staticData: IDataObject) => String(staticData.seenEventKeys).split('\n').filter((key) => key !== '');

let triggers = 0;

/** A trigger's in-process window holding `claims` claims (c0, c1 … in that order), and its key. */
function claimed(claims: number): { key: string; claims: string[] } {
	const key = triggerKey(`persisted-window-write-${++triggers}`, 'trigger-node');
	for (let i = 0; i < claims; i++) claimInProcess(key, `c${i}`);
	return { key, claims: claimedInProcess(key) };
}

describe('trigger: the persisted window written from the newest claims', () => {
	// At, below and past the persisted window's bound and the process window's (which drops the oldest claims).
	const claimCounts = [0, 1, PERSISTED_WINDOW - 2, PERSISTED_WINDOW - 1, PERSISTED_WINDOW, PERSISTED_WINDOW + 1, WINDOW_SIZE, WINDOW_SIZE + 1];

	it.each(claimCounts)('with %i claims keeps what a write over every claim kept', (count) => {
		const { key, claims } = claimed(count);
		expect(claims.length).toBe(Math.min(count, WINDOW_SIZE));
		const stored = Array.from({ length: PERSISTED_WINDOW }, (_, i) => `s${i}`);
		// The delivered events: the newest claim, an old one, one not claimed here (claimed before a restart), twice.
		const delivered = [...claims.slice(-1), ...claims.slice(0, 1), 'unclaimed', 'unclaimed'];
		const staticData = storedData(stored);
		const newest = newestClaims(key, delivered, PERSISTED_WINDOW);
		expect(newest.length).toBe(Math.min(claims.length + 1, PERSISTED_WINDOW));
		expect(recordInPersistedWindow(staticData, newest)).toBe(true);
		expect(keptIn(staticData)).toEqual(keptOverEveryClaim(stored, claims, delivered));
		expect(staticData.seenEventCount).toBe(PERSISTED_WINDOW);
		releaseInProcess(key);
	});

	it(`more unclaimed delivered keys than the window holds: the newest ${PERSISTED_WINDOW} of them, none of the claims`, () => {
		const { key, claims } = claimed(10);
		const delivered = Array.from({ length: PERSISTED_WINDOW + 3 }, (_, i) => `d${i}`);
		expect(newestClaims(key, delivered, PERSISTED_WINDOW)).toEqual(delivered.slice(3));
		const staticData = storedData(['s0']);
		recordInPersistedWindow(staticData, newestClaims(key, delivered, PERSISTED_WINDOW));
		expect(keptIn(staticData)).toEqual(keptOverEveryClaim(['s0'], claims, delivered));
		releaseInProcess(key);
	});

	it('a trigger with no window: the delivered keys, each once', () => {
		expect(newestClaims(triggerKey('persisted-window-write-none', 'trigger-node'), ['a', 'b', 'a'], PERSISTED_WINDOW)).toEqual(['a', 'b']);
	});

	it('any stored list, claims and delivered keys: the same keys in the same order (fast-check, seed 36, 200 runs)', () => {
		const keyOf = fc.integer({ min: 0, max: 2 * WINDOW_SIZE }).map((n) => `k${n}`);
		fc.assert(
			fc.property(
				fc.uniqueArray(keyOf, { maxLength: PERSISTED_WINDOW }),
				fc.oneof(fc.constantFrom(...claimCounts), fc.integer({ min: 0, max: WINDOW_SIZE + 50 })),
				fc.integer({ min: 0, max: WINDOW_SIZE }),
				fc.array(fc.oneof(keyOf, fc.nat({ max: WINDOW_SIZE + 50 }).map((n) => `k${n}`)), { maxLength: 8 }),
				(stored, count, offset, delivered) => {
					// Claims k<offset> … k<offset+count-1>: overlapping the stored and the delivered keys at random.
					const key = triggerKey(`persisted-window-write-${++triggers}`, 'trigger-node');
					for (let i = 0; i < count; i++) claimInProcess(key, `k${offset + i}`);
					const claims = claimedInProcess(key);
					const staticData = storedData(stored);
					recordInPersistedWindow(staticData, newestClaims(key, delivered, PERSISTED_WINDOW));
					releaseInProcess(key);
					expect(keptIn(staticData)).toEqual(keptOverEveryClaim(stored, claims, delivered));
				},
			),
			{ numRuns: 200, seed: 36 },
		);
	});
});
