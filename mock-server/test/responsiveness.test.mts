// The mock stays responsive at the default data size: a job search reads the account's jobs a slice per turn of the event loop, and a cycle is cheap.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MOCK_CONTROL_PATHS, jobSearchEnvelopeSchema } from '../src/base/contract.mts';
import { SLICE } from '../src/base/work.mts';
import { APP_URL, call, ok, useMock } from './harness.mts';

// No reset between the tests: each holds whatever cycles ran before it, and a reset loads the 100,000 jobs again.
const mock = useMock({ rateLimit: 0 }, { resetBeforeEach: false });

afterEach(() => {
	vi.restoreAllMocks();
});

/** Counts the reads of job records (array elements of jobsOf) that searches make. */
function countJobReads(): { reads: () => number; take: () => number } {
	const { store } = mock.service;
	const jobsOf = store.jobsOf.bind(store);
	let reads = 0;
	vi.spyOn(store, 'jobsOf').mockImplementation((accountId: string) =>
		new Proxy(jobsOf(accountId), {
			get(target, property, receiver) {
				if (typeof property === 'string' && /^\d+$/.test(property)) reads++;
				return Reflect.get(target, property, receiver) as unknown;
			},
		}),
	);
	return {
		reads: () => reads,
		take: () => {
			const taken = reads;
			reads = 0;
			return taken;
		},
	};
}

const search = (text: string, extra = '') => ok(jobSearchEnvelopeSchema, `/jobs?search=${encodeURIComponent(text)}${extra}`);

describe('responsiveness at the default data size', () => {
	it('an uncached job search reads at most one slice of jobs per turn of the event loop, also right after a cycle', async () => {
		const counter = countJobReads();
		// One tick per turn of the loop: the reads between two ticks ran without a break.
		const perTurn: number[] = [];
		let total = 0;
		let ticking = true;
		const tick = () => {
			const reads = counter.take();
			perTurn.push(reads);
			total += reads;
			if (ticking) setImmediate(tick);
		};
		setImmediate(tick);
		expect((await call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST' })).status).toBe(200);
		// One-letter terms are in nearly every word: the index prunes nothing and every job is checked.
		const searches = ['e', 'a,-o', 'python', ''];
		for (const text of searches) {
			await search(text, '&locations=e&offset=100');
			// In-process, the next request would start in the same turn as this answer (all promises); over a socket it cannot.
			await new Promise((resolve) => setImmediate(resolve));
		}
		ticking = false;
		total += counter.take();
		const jobs = mock.service.store.jobsOf('acc_demo').length;
		expect(jobs).toBeGreaterThanOrEqual(100_000);
		// The first two searches read every job (the count shows the proxy saw the scans), never more than a slice at a time.
		expect(total).toBeGreaterThanOrEqual(2 * jobs);
		expect(Math.max(...perTurn)).toBeLessThanOrEqual(SLICE);
		// At ≤ 1 µs a read (0.3 µs measured idle, about 1 µs with the cores busy), a slice stays a tenth of the 50 ms goal.
		expect(SLICE).toBeLessThanOrEqual(5000);
	});

	it.each([
		['kubernetes', ''],
		['python,aws', '&locations=europe'],
		['senior+remote,-java', ''],
		['data science|devops', '&locations=berlin,paris'],
		['', '&job_tags=visa-sponsorship&industry_tags=biotech'],
		['python', '&job_tags=remote&job_tags=hybrid'],
	])('a selective search (%s%s) reads only the jobs the index leaves, not all 100,000', async (text, extra) => {
		const counter = countJobReads();
		const page = await search(text, extra);
		const reads = counter.reads();
		const jobs = mock.service.store.jobsOf('acc_demo').length;
		// Every match was checked, and little else: a search that read every job took 35–70 ms of CPU.
		expect(reads).toBeGreaterThanOrEqual(page.metrics.count_jobs);
		expect(reads).toBeLessThan(jobs / 4);
	});

	it.each([
		['the usual cycle', undefined],
		['a cycle that also moves a source to a new domain (its jobs too)', { domain_changes: 1 }],
	])('a cycle costs little CPU time, however busy the machine: %s', async (_name, body) => {
		// CPU time of this thread, not wall-clock: other processes on the shared cores do not count, and neither do
		// V8's helper threads, which mark the 100,000-record heap concurrently (process.cpuUsage counted them, and a
		// CI run with a big heap lifted even the fastest of 9 calls past the bound). A cycle's own work is a few ms
		// called directly, about twice that through the route; one that re-sorted 100,000 jobs would cost hundreds.
		// The first call compiles, so one call warms up, and the bound (half the 50 ms goal) is on the fastest of 9:
		// a cycle that did too much work would exceed it in every call.
		const cycle = () => call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST', body });
		expect((await cycle()).status).toBe(200);
		const cpuMs: number[] = [];
		for (let i = 0; i < 9; i++) {
			const before = process.threadCpuUsage();
			const answer = await cycle();
			const used = process.threadCpuUsage(before);
			expect(answer.status).toBe(200);
			cpuMs.push((used.user + used.system) / 1000);
		}
		cpuMs.sort((a, b) => a - b);
		expect(cpuMs[0]).toBeLessThan(25);
	});
});
