// The trigger's row of seen ids on queue-mode workers: a store another worker's write dropped is made again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IExecuteFunctions } from 'n8n-workflow';
import { rememberSeenIds } from '../../nodes/shared/seen-ids';

/**
 * n8n's row as two workers see it: this worker's writes go through `checkProcessedAndRecord`; `staleWrite`
 * is the other worker writing back the row it read before this worker's write (so this worker's ids go).
 */
function sharedRow() {
	let row: string[] = [];
	const logged: string[] = [];
	const context = {
		helpers: {
			async checkProcessedAndRecord(items: string[], _scope: string, options: { maxEntries: number }) {
				const fresh = items.filter((item) => !row.includes(item));
				// As n8n's: the new ones appended in the order given, the last maxEntries kept.
				row = [...row, ...fresh].slice(-options.maxEntries);
				return { new: fresh, processed: items.filter((item) => !fresh.includes(item)) };
			},
		},
		getNode: () => ({ name: 'Job Signals Trigger' }),
		logger: { debug: (message: string) => logged.push(message), warn: (message: string) => logged.push(message) },
	} as unknown as IExecuteFunctions;
	return {
		context,
		logged,
		row: () => row,
		read: () => [...row],
		staleWrite: (read: string[], own: string[]) => (row = [...read, ...own]),
	};
}

afterEach(() => vi.useRealTimers());

describe('the row of seen ids on a queue-mode worker', () => {
	it('an id another worker\'s write dropped is in the row again once the store is asserted again', async () => {
		vi.useFakeTimers();
		const shared = sharedRow();
		const before = shared.read();
		expect(await rememberSeenIds(shared.context, 'wf:node', ['a', 'b'], 2000)).toEqual(['a', 'b']);
		shared.staleWrite(before, ['c']);
		expect(shared.row()).toEqual(['c']);
		await vi.advanceTimersByTimeAsync(2000);
		expect(shared.row().sort()).toEqual(['a', 'b', 'c']);
		expect(shared.logged).toEqual([expect.stringContaining('Job Signals Trigger: 2 id(s) were dropped')]);
	});

	it('ids that were already stored pass nothing on, and an assertion that finds them leaves the row alone', async () => {
		vi.useFakeTimers();
		const shared = sharedRow();
		await rememberSeenIds(shared.context, 'wf:node2', ['a'], 2000);
		expect(await rememberSeenIds(shared.context, 'wf:node2', ['a', 'b'], 2000)).toEqual(['b']);
		await vi.advanceTimersByTimeAsync(20_000);
		expect(shared.row()).toEqual(['a', 'b']);
		expect(shared.logged).toEqual([]);
	});

	it('a failing check is logged and ends the assertions; the execution had its answer already', async () => {
		vi.useFakeTimers();
		const shared = sharedRow();
		const fresh = await rememberSeenIds(shared.context, 'wf:node3', ['a'], 2000);
		shared.context.helpers.checkProcessedAndRecord = async () => {
			throw new Error('connection lost');
		};
		await vi.advanceTimersByTimeAsync(20_000);
		expect(fresh).toEqual(['a']);
		expect(shared.logged).toEqual([expect.stringContaining('could not check its stored seen ids again: connection lost')]);
	});

	it('ids the bound pushed out, in the store itself or by later ones, are not stored again: they would push out newer ones', async () => {
		vi.useFakeTimers();
		const shared = sharedRow();
		expect(await rememberSeenIds(shared.context, 'wf:node4', ['a', 'b', 'c', 'd'], 3)).toEqual(['a', 'b', 'c', 'd']);
		expect(shared.row()).toEqual(['b', 'c', 'd']);
		expect(await rememberSeenIds(shared.context, 'wf:node4', ['e', 'f'], 3)).toEqual(['e', 'f']);
		expect(shared.row()).toEqual(['d', 'e', 'f']);
		await vi.advanceTimersByTimeAsync(20_000);
		expect(shared.row()).toEqual(['d', 'e', 'f']);
		expect(shared.logged).toEqual([]);
	});

	it('with the bound, an id another worker dropped is still stored again', async () => {
		vi.useFakeTimers();
		const shared = sharedRow();
		const before = shared.read();
		expect(await rememberSeenIds(shared.context, 'wf:node5', ['a', 'b', 'c'], 2)).toEqual(['a', 'b', 'c']);
		shared.staleWrite(before, ['x']);
		await vi.advanceTimersByTimeAsync(2000);
		expect(shared.row()).toEqual(['b', 'c']);
		expect(shared.logged).toEqual([expect.stringContaining('2 id(s) were dropped')]);
	});
});
