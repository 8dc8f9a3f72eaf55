// Faults during a poll: 429 and 500 retried; a failure mid-walk, a malformed page or a crash before hand-off loses and repeats nothing, and the error is visible.
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { setFaults } from '../node/direct.mts';
import { expectExactlyOnce, idsOf, processCycle, serviceCalls, trigger } from './setup.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

const SEARCH_ALL = { event: 'newJob', jobsFrom: 'search' };

/** An activated trigger with 50 cycles (250 new jobs, three pages) waiting for its next poll. */
async function withBacklog() {
	const poller = trigger(mock, SEARCH_ALL);
	await poller.tick();
	const created: string[] = [];
	for (let i = 0; i < 50; i++) {
		for (const e of await processCycle(mock)) if (e.event_type === 'job_created') created.push(String(e.event_data.job_id));
	}
	const present = new Set(mock.service.store.jobsOf(mock.service.accounts()[0].account_id).map((j) => j.job.job_id));
	return { poller, expected: created.filter((id) => present.has(id)), from: mock.answers().length };
}

// Each case first runs 50 cycles and polls through n8n-core: seconds of CPU, which at a load of 25-33 on two cores
// took two cases to 28-33 s, past vitest's 30 s. A bound that still ends a hang.
describe('poll trigger: faults', { timeout: 300_000 }, () => {
	it('429s in the middle of a walk are waited out; every item once', async () => {
		const { poller, expected, from } = await withBacklog();
		await setFaults([{ path: '/v2/jobs', status: 429, after: 1, times: 2 }]);
		const tick = await poller.tick();
		expect(tick.error).toBeUndefined();
		expectExactlyOnce([idsOf(tick, 'job_id')], expected);
		expect(serviceCalls(mock, from).map((c) => c.status)).toEqual([200, 429, 429, 200, 200]);
	});

	it('a 500 that outlasts the retries fails the poll visibly, emits nothing, and the next poll emits everything once', async () => {
		const { poller, expected, from } = await withBacklog();
		const before = poller.state();
		// The second page fails on its first try and all three retries.
		await setFaults([{ path: '/v2/jobs', status: 500, after: 1, times: 4 }]);
		const failed = await poller.tick();
		expect(failed.items).toBeUndefined();
		expect(failed.error?.name).toBe('NodeApiError');
		expect(failed.error?.httpCode).toBe('500');
		expect(poller.state()).toBe(before);
		expect(serviceCalls(mock, from).map((c) => c.status)).toEqual([200, 500, 500, 500, 500]);
		const next = await poller.tick();
		expect(next.error).toBeUndefined();
		expectExactlyOnce([idsOf(next, 'job_id')], expected);
		expect((await poller.tick()).items).toBeUndefined();
	});

	it('a dropped connection mid-walk, retried, loses nothing', async () => {
		const { poller, expected } = await withBacklog();
		await setFaults([{ path: '/v2/jobs', drop: true, after: 2, times: 1 }]);
		const tick = await poller.tick();
		expect(tick.error).toBeUndefined();
		expectExactlyOnce([idsOf(tick, 'job_id')], expected);
	});

	it.each(['null-list', 'wrong-shape', 'truncated-json', 'html'])('a malformed page (%s) mid-walk fails the poll visibly; nothing is emitted, the position stays, the next poll emits everything once', async (body) => {
		const { poller, expected } = await withBacklog();
		const before = poller.state();
		await setFaults([{ path: '/v2/jobs', body, after: 1, times: 1 }]);
		const failed = await poller.tick();
		expect(failed.items).toBeUndefined();
		expect(failed.error?.name).toBe('NodeApiError');
		expect(failed.error?.message).toMatch(/does not match the API contract|not JSON|could not be read/i);
		expect(poller.state()).toBe(before);
		const next = await poller.restart().tick();
		expectExactlyOnce([idsOf(next, 'job_id')], expected);
	});

	it('a malformed first page of an idle signals poll fails visibly and moves nothing', async () => {
		const poller = trigger(mock, { event: 'newSignal', group: 'changes', category: '', directOnly: false, activeOnly: false });
		await poller.tick();
		const before = poller.state();
		await setFaults([{ path: '/v2/signals', body: 'null-list', times: 1 }]);
		const failed = await poller.tick();
		expect(failed.error?.message).toMatch(/signals/);
		expect(poller.state()).toBe(before);
		await processCycle(mock);
		expect((await poller.tick()).error).toBeUndefined();
	});

	it('a crash between fetching and handing off commits nothing: the next poll hands the same items off, once', async () => {
		const { poller, expected } = await withBacklog();
		const before = poller.state();
		poller.failHandOff();
		const crashed = await poller.tick();
		expect(crashed.items).toBeUndefined();
		expect(crashed.error?.message).toMatch(/hand-off failed/);
		expect(poller.state()).toBe(before);
		const next = await poller.restart().tick();
		expectExactlyOnce([idsOf(next, 'job_id')], expected);
	});

	it('with n8n\'s default scheduler (static data changed in place), a poll that fails after its walk leaves the position alone: fixed, the next poll hands every item off', async () => {
		// Selected Fields with no field chosen fails when the items are shaped, after the walk.
		const unshapable = { ...SEARCH_ALL, output: 'selected', fields: [] };
		const poller = trigger(mock, unshapable, { scheduler: 'default' });
		await poller.tick();
		const created: string[] = [];
		for (let i = 0; i < 5; i++) {
			for (const e of await processCycle(mock)) if (e.event_type === 'job_created') created.push(String(e.event_data.job_id));
		}
		const present = new Set(mock.service.store.jobsOf(mock.service.accounts()[0].account_id).map((j) => j.job.job_id));
		const expected = created.filter((id) => present.has(id));
		expect(expected.length).toBeGreaterThan(0);
		const before = poller.state();
		const failed = await poller.tick();
		expect(failed.error?.message).toBe('Output is Selected Fields, but no field is chosen');
		expect(poller.state()).toBe(before);
		// The user chooses a field; n8n activates the workflow again on the static data as it stands.
		const fixed = trigger(mock, { ...unshapable, fields: ['job_id'] }, { state: poller.state(), scheduler: 'default' });
		expectExactlyOnce([idsOf(await fixed.tick(), 'job_id')], expected);
	});
});
