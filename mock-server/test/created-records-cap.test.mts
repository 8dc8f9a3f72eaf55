// --max-created-records: a long run of cycles keeps the data, the search index, the domain-move records and the state
// folder's rows flat, and the API tells a consistent story (a retired job gets its job_deleted events and is gone everywhere).
import { describe, expect, it } from 'vitest';
import { MOCK_CONTROL_PATHS, ENDPOINTS, jobSearchEnvelopeSchema, signalsEnvelopeSchema } from '../src/base/contract.mts';
import type { CycleEvent } from '../src/webhooks/envelope.mts';
import { APP_URL, call, ok, SMALL, useMock } from './harness.mts';

const CAP = 40;
const SEED = { jobs: SMALL.jobs as number, signals: SMALL.signals as number };
const mock = useMock({ ...SMALL, maxCreatedRecords: CAP });

/** Ids of the form job_N / sig_N numbered past the seed's: the ones cycles and events created. */
const created = (ids: Iterable<string>, prefix: string, seed: number) => [...ids].filter((id) => id.startsWith(prefix) && Number(id.slice(prefix.length)) > seed);

function counts() {
	const { store } = mock.service;
	const formerDomains = (store as unknown as { formerDomains: Map<string, string> }).formerDomains;
	return {
		jobs: store.jobs.size,
		createdJobs: created(store.jobs.keys(), 'job_', SEED.jobs).length,
		signals: store.signals.length,
		createdSignals: created(store.signals.map((s) => s.signal_id), 'sig_', SEED.signals).length,
		indexSerials: store.index.size,
		indexLive: store.index.live,
		formerDomains: formerDomains.size,
	};
}

const cycle = async (body?: object) =>
	((await call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST', body })).json as { events: CycleEvent[] }).events;

describe('--max-created-records', () => {
	it('a long run (600 cycles, 10 times the cap) keeps every count flat; a retired job is deleted the usual way', async () => {
		const events: CycleEvent[] = [];
		const checkpoints: ReturnType<typeof counts>[] = [];
		for (let i = 1; i <= 600; i++) {
			events.push(...(await cycle(i % 10 === 0 ? { domain_changes: 1 } : undefined)));
			if (i % 100 === 0) checkpoints.push(counts());
		}
		for (const at of checkpoints) {
			expect(at.createdJobs).toBeLessThanOrEqual(CAP);
			expect(at.createdSignals).toBeLessThanOrEqual(CAP);
			expect(at.jobs).toBeLessThanOrEqual(SEED.jobs + CAP);
			expect(at.signals).toBeLessThanOrEqual(SEED.signals + CAP);
			// Deleted jobs' serials stay in the index until they pass a quarter of the live ones; then it is rebuilt.
			expect(at.indexSerials - at.indexLive).toBeLessThanOrEqual(at.indexLive / 4 + 1);
		}
		// The cap was reached and held: 3,000 jobs and 1,800 signals were created.
		expect(checkpoints.at(-1)?.createdJobs).toBe(CAP);
		expect(checkpoints.at(-1)?.createdSignals).toBe(CAP);
		// One domain move every 10 cycles: their records go with their signals.
		expect(checkpoints.at(-1)?.formerDomains).toBe(checkpoints[0].formerDomains);

		// Every created job that is gone got job_deleted events, to every account that had its job_created.
		const receivers = (type: string) => {
			const byId = new Map<string, Set<string>>();
			for (const e of events) if (e.event_type === type) {
				const id = (e.event_data as { job_id: string }).job_id;
				byId.set(id, (byId.get(id) ?? new Set()).add(e.account_id));
			}
			return byId;
		};
		const [born, died] = [receivers('job_created'), receivers('job_deleted')];
		const gone = [...born.keys()].filter((id) => !mock.service.store.jobs.has(id));
		expect(gone.length).toBeGreaterThan(3000 - CAP - 1200);
		for (const id of gone) expect([...(born.get(id) ?? [])].filter((account) => !died.get(id)?.has(account))).toEqual([]);
		// ... and the API has forgotten it.
		expect((await call(ENDPOINTS.jobById.path.replace(':job_id', gone[0]))).status).toBe(404);
	});

	it('the API agrees with the data after the cap is passed: job search, job board counts, signal lists', async () => {
		for (let i = 0; i < 30; i++) await cycle({ created: 10, updated: 2, deleted: 2, signals: 10, domain_changes: 1 });
		const { store } = mock.service;
		const search = await ok(jobSearchEnvelopeSchema, '/jobs');
		expect(search.metrics.count_jobs).toBe(store.jobsOf('acc_demo').length);
		for (const [sourceId, jobs] of store.jobsBySource) expect(store.sources.get(sourceId)?.count_jobboard_jobs).toBe(jobs.length);
		const changes = await ok(signalsEnvelopeSchema, '/signals/changes?direct_only=false&active_only=false&per_page=1000');
		const ids = new Set(store.signals.map((s) => s.signal_id));
		for (const signal of changes.signals) expect(ids.has(signal.signal_id)).toBe(true);
		expect(created(store.signals.map((s) => s.signal_id), 'sig_', SEED.signals).length).toBe(CAP);
	});

	it('is a flag of its own: a cap below 1 is refused', async () => {
		const { createMockService } = await import('../src/service.mts');
		await expect(createMockService({ ...SMALL, maxCreatedRecords: 0 })).rejects.toThrow('maxCreatedRecords must be a whole number ≥ 1');
	});
});
