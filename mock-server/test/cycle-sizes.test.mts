// processCycle() in-process takes the counts as POST /__mock/process does: each left out keeps its default, a bad one
// is refused naming it; CycleSizes is the package entry's type.
import { describe, expect, it } from 'vitest';
import type { CycleSizes } from '../src/index.mts';
import { DEFAULT_CYCLE } from '../src/cycles/cycle.mts';
import { call, useMock } from './harness.mts';

type Events = Awaited<ReturnType<ReturnType<typeof useMock>['service']['processCycle']>>;

/** How many changes of each kind a cycle made: its events of the demo account, which tracks every source and has no filter of its own. */
function counted(events: Events): CycleSizes {
	const demo = events.filter((e) => e.account_id === 'acc_demo');
	const of = (type: string) => demo.filter((e) => e.event_type === type).length;
	return { created: of('job_created'), updated: of('job_updated'), deleted: of('job_deleted'), signals: of('signal'), domain_changes: 0 };
}

describe('processCycle() in-process', () => {
	const mock = useMock();

	it('keeps the default of each count left out, as POST /__mock/process does', async () => {
		expect(counted(await mock.service.processCycle({ created: 1 }))).toEqual({ ...DEFAULT_CYCLE, created: 1 });
		expect(counted(await mock.service.processCycle({ deleted: 0, signals: 4 }))).toEqual({ ...DEFAULT_CYCLE, deleted: 0, signals: 4 });
		expect(counted(await mock.service.processCycle())).toEqual(DEFAULT_CYCLE);
		const overHttp = await call('/__mock/process', { base: 'http://mock.test', method: 'POST', body: { created: 1 } });
		expect(counted((overHttp.json as { events: Events }).events)).toEqual({ ...DEFAULT_CYCLE, created: 1 });
	});

	it('takes the whole CycleSizes too', async () => {
		const sizes: CycleSizes = { created: 0, updated: 0, deleted: 1, signals: 0, domain_changes: 0 };
		expect(counted(await mock.service.processCycle(sizes))).toEqual(sizes);
	});

	it('rejects with a RangeError naming a bad count, and changes nothing', async () => {
		const before = mock.service.requests().data.length;
		const jobs = mock.service.store.jobs.size;
		await expect(mock.service.processCycle({ created: 1001 })).rejects.toThrow(new RangeError(
			'processCycle: "created" Too big: expected number to be <=1000 (counts 0–1000: created, updated, deleted, signals, domain_changes)',
		));
		await expect(mock.service.processCycle({ created: -1 })).rejects.toBeInstanceOf(RangeError);
		await expect(mock.service.processCycle({ signals: 1.5 })).rejects.toThrow(/^processCycle: "signals" /);
		await expect(mock.service.processCycle({ creatd: 1 } as Partial<CycleSizes>)).rejects.toThrow(/^processCycle: .*creatd/);
		expect(mock.service.store.jobs.size).toBe(jobs);
		expect(mock.service.requests().data.length).toBe(before);
	});
});
