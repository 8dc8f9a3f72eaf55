// A bulk import: tens of thousands of jobs on one created_at second, from the mock's data file (the `data` option).
// Each comes out once, the saved state stays within its bound, and the node's id lookups stay linear.
import { describe, expect, it } from 'vitest';
import { STATE_BOUNDS } from '../../nodes/JobSignalsPollTrigger/position.ts';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { bulkImport } from '../../harness/in-process/bulk-import.mts';
import { expectExactlyOnce, idsOf, processCycle, serviceCalls, trigger } from './setup.mts';

const BULK = 50_000;
const OLDER = 100;

const mock = useMockService({ ...SMALL_MOCK, sources: 0, data: bulkImport(BULK, OLDER), rateLimit: 1_000_000 });

const SEARCH_ALL = { event: 'newJob', jobsFrom: 'search', includeExisting: true };
const allJobIds = () => mock.service.store.jobsOf(mock.service.accounts()[0].account_id).map((j) => j.job.job_id);
const stateBytes = (state: string) => Buffer.byteLength(JSON.stringify((JSON.parse(state) as { pollState: unknown }).pollState));

/**
 * The elements Array.prototype.includes and indexOf scan while `work` runs: a list searched once per item is
 * quadratic (the trigger's id lookups were, 3.4 s for 50,000 jobs on one second); Set lookups scan none.
 */
async function scanned<T>(work: () => Promise<T>): Promise<{ result: T; elements: number }> {
	const { includes, indexOf } = Array.prototype;
	let elements = 0;
	Array.prototype.includes = function (this: unknown[], ...args: Parameters<typeof includes>) {
		elements += this.length;
		return includes.apply(this, args);
	};
	Array.prototype.indexOf = function (this: unknown[], ...args: Parameters<typeof indexOf>) {
		elements += this.length;
		return indexOf.apply(this, args);
	};
	try {
		return { result: await work(), elements };
	} finally {
		Array.prototype.includes = includes;
		Array.prototype.indexOf = indexOf;
	}
}

describe('poll trigger: a bulk import on one second', () => {
	it(`${BULK.toLocaleString('en')} jobs on one second come out once each; the state stays within ${STATE_BOUNDS.stateBytes} bytes; an idle poll after is one request`, async () => {
		const expected = allJobIds();
		expect(expected).toHaveLength(BULK + OLDER);
		const poller = trigger(mock, SEARCH_ALL);
		const { result: tick, elements } = await scanned(() => poller.tick());
		expect(tick.error).toBeUndefined();
		expectExactlyOnce([idsOf(tick, 'job_id')], expected);
		// Linear: a few elements scanned per item at most (n8n's own code scans short lists per item); the per-item list search scanned ~10^9.
		console.log(`${BULK} jobs on one second: ${tick.items!.length} emitted, ${elements} array elements scanned by includes/indexOf, state ${stateBytes(poller.state())} bytes`);
		expect(elements).toBeLessThan(50 * expected.length);
		expect(stateBytes(poller.state())).toBeLessThanOrEqual(STATE_BOUNDS.stateBytes);
		// The second is closed in the Mark (more ids than it holds): an idle poll stops at the first page instead of reading through it.
		const from = mock.answers().length;
		expect((await poller.tick()).items).toBeUndefined();
		expect(serviceCalls(mock, from)).toHaveLength(1);
		const events = await processCycle(mock);
		const created = events.filter((e) => e.event_type === 'job_created').map((e) => String(e.event_data.job_id));
		expect(idsOf(await poller.tick(), 'job_id').sort()).toEqual(created.sort());
		// 502 requests through n8n-core and the mock in one process: well over the default 30 s on a busy machine.
	}, 600_000);
});
