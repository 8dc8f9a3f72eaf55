// What n8n reads from the poll trigger: a polling trigger beside the webhook trigger, the action node's pickers, the cursor's bounds.
import { describe, expect, it } from 'vitest';
import { isNew, markFrom, MAX_MARK_IDS, type Keyed } from '../../nodes/JobSignalsPollTrigger/position.ts';
import { loadOptions } from '../../harness/in-process/load-options.mts';
import { loadPackages } from '../../harness/in-process/packages.mts';
import { POLL_TYPE } from './setup.mts';

const item = (id: string, created: number): Keyed => ({ id, created, item: {} });

describe('poll trigger description', () => {
	it('is a polling trigger with the Job Signals credential, not a tool', async () => {
		const { description } = (await loadPackages()).nodeTypes.getByNameAndVersion(POLL_TYPE, 1);
		expect(description.polling).toBe(true);
		expect(description.group).toEqual(['trigger']);
		expect(description.inputs).toEqual([]);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.credentials).toEqual([{ name: 'jobSignalsApi', required: true, testedBy: 'jobSignalsApiTest' }]);
		const events = description.properties.find((p) => p.name === 'event')!.options!.map((o) => (o as { value: string }).value);
		expect(events.sort()).toEqual(['newJob', 'newSignal', 'updatedJob']);
		expect(description.properties.some((p) => p.type === 'notice' && /Deleted jobs cannot be polled/.test(p.displayName))).toBe(true);
	});

	it('the category and type pickers are the action node\'s', async () => {
		const types = await loadOptions({ type: POLL_TYPE, method: 'getSignalTypes', parameters: { event: 'newSignal', group: 'changes', category: 'location' } });
		expect(types.map((o) => o.value)).toEqual(['', 'location-change-planned', 'location-change-completed']);
	});
});

describe('poll position (cursor.ts)', () => {
	it('a Mark leaves out the last second read unless the list ended, and keeps whole seconds within its bound', () => {
		const seen = [item('a', 30), item('b', 30), item('c', 20), item('d', 10)];
		expect(markFrom(seen, false)).toEqual({ at: 30, from: 20, ids: ['a', 'b', 'c'] });
		expect(markFrom(seen, true)).toEqual({ at: 30, from: 10, ids: ['a', 'b', 'c', 'd'] });
		const many = Array.from({ length: MAX_MARK_IDS + 10 }, (_, i) => item(`i${i}`, 1000 - Math.floor(i / 3)));
		const mark = markFrom(many, true);
		expect(mark.ids.length).toBeLessThanOrEqual(MAX_MARK_IDS);
		// Every id of each second from `from` to `at` is listed.
		expect(mark.ids).toEqual(many.filter((i) => i.created >= mark.from).map((i) => i.id));
	});

	it('one second read but not finished: everything up to it is old, the rest of it is left to the backlog', () => {
		const mark = markFrom([item('a', 50), item('b', 50)], false);
		expect(isNew(item('z', 50), mark)).toBe(false);
		expect(isNew(item('y', 51), mark)).toBe(true);
	});

	it('new: newer than the Mark, or inside it and not listed; old: listed, or older than it', () => {
		const mark = { at: 30, from: 20, ids: ['a', 'c'] };
		expect([item('x', 31), item('a', 30), item('b', 30), item('c', 20), item('late', 25), item('old', 19)].map((i) => isNew(i, mark))).toEqual([
			true, false, true, false, true, false,
		]);
		expect(isNew(item('any', 1), null)).toBe(true);
	});
});
