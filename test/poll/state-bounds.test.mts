// The saved poll state's bounds (STATE_BOUNDS): each part at its bound and one past it, and the largest state they allow.
import type { IPollFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import type { Feed } from '../../nodes/JobSignalsPollTrigger/feeds.ts';
import { changedSince, edgeAfter, isNew, jsonBytes, markFrom, NewestChange, readState, STATE_BOUNDS, stateKey, type Keyed, type PollState } from '../../nodes/JobSignalsPollTrigger/position.ts';
import { readDown, TimeBudget } from '../../nodes/JobSignalsPollTrigger/read-down.ts';
import { handOffName } from '../../nodes/JobSignalsPollTrigger/recent-hand-offs.ts';

const item = (id: string, created: number): Keyed => ({ id, created, item: {} });
/** `count` ids of `length` characters (JSON: length + 3 bytes with quotes and comma). */
const ids = (prefix: string, count: number, length: number) => Array.from({ length: count }, (_, i) => `${prefix}${String(i)}`.padEnd(length, 'x'));
const bytesOf = (list: string[]) => list.reduce((sum, id) => sum + jsonBytes(id), 0);

describe('poll state bounds', () => {
	it(`a Mark lists a second of ${STATE_BOUNDS.markIds} ids; one more closes it: later items on that second read as old, newer ones as new`, () => {
		const full = ids('a', STATE_BOUNDS.markIds, 8).map((id) => item(id, 100));
		const mark = markFrom([...full, item('older', 99)], false);
		expect(mark).toEqual({ at: 100, from: 100, ids: full.map((i) => i.id) });
		const past = markFrom([...full, item('one-more', 100), item('older', 99)], false);
		expect(past).toEqual({ at: 100, from: 101, ids: [] });
		expect(isNew(item('late-tie', 100), past)).toBe(false);
		expect(isNew(item('newer', 101), past)).toBe(true);
	});

	it(`a Mark keeps whole seconds within ${STATE_BOUNDS.markIdBytes} bytes of ids`, () => {
		// Ids of 61 characters (64 bytes each): 128 fit exactly, in seconds of 64.
		const long = ids('b', 192, 61).map((id, i) => item(id, 1000 - Math.floor(i / 64)));
		expect(bytesOf(long.slice(0, 128).map((i) => i.id))).toBe(STATE_BOUNDS.markIdBytes);
		const mark = markFrom(long, true);
		expect(mark).toEqual({ at: 1000, from: 999, ids: long.slice(0, 128).map((i) => i.id) });
		// One byte more on the second second: only the first second fits.
		const longer = long.map((i, n) => (n === 127 ? item(`${i.id}y`, i.created) : i));
		expect(markFrom(longer, true)).toEqual({ at: 1000, from: 1000, ids: long.slice(0, 64).map((i) => i.id) });
	});

	it(`a segment's window keeps the last ids of its second within ${STATE_BOUNDS.windowIdBytes} bytes`, () => {
		// 64 ids of 61 characters are exactly the window; the page after adds one more at the same second.
		const page = ids('c', 64, 61).map((id) => item(id, 500));
		const edge = edgeAfter(page)!;
		expect(edge).toEqual({ at: 500, ids: page.map((i) => i.id) });
		expect(bytesOf(edge.ids)).toBe(STATE_BOUNDS.windowIdBytes);
		const next = edgeAfter([item('c-next'.padEnd(61, 'x'), 500)], edge)!;
		expect(next.ids).toEqual([...page.slice(1).map((i) => i.id), 'c-next'.padEnd(61, 'x')]);
	});

	it('Updated Job lists the jobs changed on its newest second within the window; past it, every job on that second counts as handled', () => {
		const at = new NewestChange(0);
		for (const id of ids('d', 64, 61)) at.add(id, 700);
		expect(at.edge().ids).toHaveLength(64);
		at.add('d-one-more', 700);
		const edge = at.edge();
		expect(edge).toEqual({ at: 700, ids: [], all: true });
		expect(changedSince('another', 700, edge)).toBe(false);
		expect(changedSince('another', 701, edge)).toBe(true);
		// A newer change starts the list again.
		at.add('e', 800);
		expect(at.edge()).toEqual({ at: 800, ids: ['e'] });
	});

	it(`a resume position longer than ${STATE_BOUNDS.resumeBytes} bytes is not kept: the walk reads on past its budget`, async () => {
		// A cursor list whose cursors are the last id read; ids (and so cursors) of 1,100 characters.
		const rows = ids('f', 12, 1100).map((id, i) => item(id, 100 - i));
		const feed: Feed = {
			kind: 'cursor',
			pageSize: 4,
			key: 'k',
			first: {},
			sample: {},
			reader: () => ({
				read: async (position) => {
					const start = position.cursor_job_id === undefined ? 0 : rows.findIndex((r) => r.id === position.cursor_job_id) + 1;
					const items = rows.slice(start, start + 4);
					return { items, next: start + 4 < rows.length ? { cursor_job_id: items[3].id } : undefined };
				},
			}),
		};
		const spent = new TimeBudget(-1);
		expect(spent.spent()).toBe(true);
		const walk = await readDown({} as IPollFunctions, feed, { position: {}, below: null }, spent);
		expect(walk.rest).toBeUndefined();
		expect(walk.emitted).toHaveLength(12);
		// Short cursors are kept: the same walk stops after its first page.
		const short = rows.map((r, i) => item(`g${i}`, r.created));
		rows.splice(0, rows.length, ...short);
		const cut = await readDown({} as IPollFunctions, feed, { position: {}, below: null }, new TimeBudget(-1));
		expect(cut.rest?.resume).toEqual({ cursor_job_id: 'g3' });
	});

	it(`the largest state the bounds allow is within ${STATE_BOUNDS.stateBytes} bytes of JSON`, () => {
		// Each part at its bound, made by the functions that make it (ids long enough that bytes, not counts, bind).
		const mark = markFrom(ids('m', 400, 61).map((id, i) => item(id, 2_000_000_000 - i)), true);
		expect(bytesOf(mark.ids)).toBe(STATE_BOUNDS.markIdBytes);
		const window = edgeAfter(ids('w', 200, 61).map((id) => item(id, 1_999_999_000)))!;
		expect(bytesOf(window.ids)).toBe(STATE_BOUNDS.windowIdBytes);
		const changed = new NewestChange(0);
		for (const id of ids('u', 64, 61)) changed.add(id, 2_000_000_001.5);
		const resume = { cursor_job_id: 'r'.repeat(STATE_BOUNDS.resumeBytes - 21) };
		expect(jsonBytes(resume)).toBe(STATE_BOUNDS.resumeBytes);
		const state: PollState = {
			key: stateKey('any parameters, however long'),
			top: mark,
			backlog: Array.from({ length: STATE_BOUNDS.segments }, () => ({ resume, above: window, below: mark })),
			updated: changed.edge(),
			handOff: handOffName(),
		};
		const bytes = Buffer.byteLength(JSON.stringify(state));
		console.log(`largest state: ${bytes} bytes of ${STATE_BOUNDS.stateBytes}`);
		expect(bytes).toBeLessThanOrEqual(STATE_BOUNDS.stateBytes);
	});
	it('the key is a digest of the parameters; a state saved with the parameters themselves (an earlier version) goes on under the digest', () => {
		const parameters = JSON.stringify(['newJob', JSON.stringify(['/jobs', { search: 'x'.repeat(5000), offset: 0 }])]);
		const key = stateKey(parameters);
		expect(key).toHaveLength(43);
		const saved = (pollState: unknown) => ({ getWorkflowStaticData: () => ({ pollState }) }) as unknown as IPollFunctions;
		const earlier = { key: parameters, top: { at: 5, from: 5, ids: ['a'] }, backlog: [] };
		expect(readState(saved(earlier), key, parameters)).toEqual({ ...earlier, key });
		expect(readState(saved({ ...earlier, key }), key, parameters)).toEqual({ ...earlier, key });
		// Other parameters: the trigger starts afresh.
		expect(readState(saved(earlier), stateKey('other'), 'other')).toBeUndefined();
	});
});
