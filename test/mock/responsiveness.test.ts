// The mock stays responsive at the default data size: a job search reads the account's jobs a slice per turn of the event loop, and a processing cycle is cheap.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MOCK_CONTROL_PATHS } from '../../mock-server/src/contract/api';
import { jobSearchEnvelopeSchema } from '../../mock-server/src/contract/schemas';
import { SLICE } from '../../mock-server/src/data/in-slices';
import { APP_URL, call, ok, useMock } from './harness';

const mock = useMock({ rateLimit: 0 });

afterEach(() => {
	vi.restoreAllMocks();
});

describe('responsiveness at the default data size', () => {
	it('an uncached job search reads at most one slice of jobs per turn of the event loop, also right after a cycle', async () => {
		const { store } = mock.service;
		const jobsOf = store.jobsOf.bind(store);
		let reads = 0;
		let total = 0;
		const counted = (accountId: string) =>
			new Proxy(jobsOf(accountId), {
				get(target, property, receiver) {
					if (typeof property === 'string' && /^\d+$/.test(property)) reads++;
					return Reflect.get(target, property, receiver) as unknown;
				},
			});
		vi.spyOn(store, 'jobsOf').mockImplementation(counted);
		// One tick per turn of the loop: the reads between two ticks ran without a break.
		const perTurn: number[] = [];
		let ticking = true;
		const tick = () => {
			perTurn.push(reads);
			total += reads;
			reads = 0;
			if (ticking) setImmediate(tick);
		};
		setImmediate(tick);
		expect((await call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST' })).status).toBe(200);
		const searches = ['python', 'senior+remote,-java', 'data|devops', ''];
		for (const search of searches) {
			await ok(jobSearchEnvelopeSchema, `/jobs?search=${encodeURIComponent(search)}&locations=europe&offset=100`);
			// In-process, the next request would start in the same turn as this answer (all promises); over a socket it cannot.
			await new Promise((resolve) => setImmediate(resolve));
		}
		ticking = false;
		total += reads;
		const jobs = jobsOf('acc_demo').length;
		expect(jobs).toBeGreaterThanOrEqual(100_000);
		// Each search read every job (the count shows the proxy saw the scans), never more than a slice at a time.
		expect(total).toBeGreaterThanOrEqual(searches.length * jobs);
		expect(Math.max(...perTurn)).toBeLessThanOrEqual(SLICE);
		// At ≤ 1 µs a read (0.3 µs measured idle, about 1 µs with the cores busy), a slice stays a tenth of the 50 ms goal.
		expect(SLICE).toBeLessThanOrEqual(5000);
	});

	it('a processing cycle costs little CPU time, however busy the machine', async () => {
		// CPU time of this process, not wall-clock: other processes on the shared cores do not count.
		// Measured 1–5 ms here (it was 65–75 ms, plus ~230 ms on the next search to re-sort 100,000 jobs);
		// the bound is half the 50 ms goal, well above that and above GC noise in the median of 9.
		const cpuMs: number[] = [];
		for (let i = 0; i < 9; i++) {
			const before = process.cpuUsage();
			const answer = await call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST' });
			const used = process.cpuUsage(before);
			expect(answer.status).toBe(200);
			cpuMs.push((used.user + used.system) / 1000);
		}
		cpuMs.sort((a, b) => a - b);
		expect(cpuMs[4]).toBeLessThan(25);
	});
});
