// POST /__mock/process with counts and a source, POST /__mock/events (one chosen event, delivered like a cycle's), and cycles on a timer, in-process.
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { MOCK_CONTROL_PATHS, WEBHOOK_EVENT_TYPES, jobSchema, signalSchema } from '../src/base/contract.mts';
import { createMockService } from '../src/service.mts';
import { APP_URL, call, expectApiError, ok, SMALL, useMock } from './harness.mts';

const mock = useMock();
const post = (path: string, body?: unknown) => call(path, { base: APP_URL, token: null, method: 'POST', body });
const eventsSchema = z.strictObject({
	events: z.array(z.strictObject({ account_id: z.string(), event_type: z.enum(WEBHOOK_EVENT_TYPES), event_data: z.record(z.string(), z.unknown()) })),
});
const demoEvents = async (path: string, body?: unknown) => {
	const answer = await post(path, body);
	expect(answer.status, JSON.stringify(answer.json)).toBe(200);
	return eventsSchema.parse(answer.json).events.filter((e) => e.account_id === 'acc_demo');
};
const countOf = (events: { event_type: string }[], type: string) => events.filter((e) => e.event_type === type).length;

describe('POST /__mock/process', () => {
	it('no body and {} run the usual cycle (5 created, 3 updated, 2 deleted, 3 signals)', async () => {
		// The demo account tracks every source, so it gets one event per change.
		for (const body of [undefined, {}]) {
			const events = await demoEvents(MOCK_CONTROL_PATHS.process, body);
			expect([countOf(events, 'job_created'), countOf(events, 'job_updated'), countOf(events, 'job_deleted'), countOf(events, 'signal')]).toEqual([5, 3, 2, 3]);
		}
	});

	it('takes counts (each left out keeps its default) and a source', async () => {
		const events = await demoEvents(MOCK_CONTROL_PATHS.process, { created: 7, updated: 0, deleted: 1, signals: 0 });
		expect([countOf(events, 'job_created'), countOf(events, 'job_updated'), countOf(events, 'job_deleted'), countOf(events, 'signal')]).toEqual([7, 0, 1, 0]);
		const source = [...mock.service.store.jobsBySource.entries()].find(([, jobs]) => jobs.length >= 4)![0];
		const onSource = await demoEvents(MOCK_CONTROL_PATHS.process, { created: 2, updated: 1, deleted: 1, signals: 2, source_id: source });
		expect(onSource).toHaveLength(6);
		for (const e of onSource) expect(e.event_data.source_id).toBe(source);
		expect(countOf(await demoEvents(MOCK_CONTROL_PATHS.process, { signals: 0 }), 'signal')).toBe(0);
	});

	it('answers 400 on a bad body and 404 on an unknown source', async () => {
		for (const [body, message] of [
			['{"created":', /must be JSON/],
			[{ created: -1 }, /created: Too small/],
			[{ created: 1.5 }, /created: /],
			[{ created: 1001 }, /created: Too big/],
			[{ created: '3' }, /created: /],
			[{ sizes: 3 }, /Unrecognized key/],
			[[], /body: /],
		] as const) {
			expectApiError(await post(MOCK_CONTROL_PATHS.process, body), 400, message);
		}
		expectApiError(await post(MOCK_CONTROL_PATHS.process, { source_id: 'src_nope' }), 404, /No source with id "src_nope"/);
	});
});

describe('POST /__mock/events', () => {
	it('job_created on a chosen source: the job is served and the event carries it', async () => {
		const [event, ...more] = await demoEvents(MOCK_CONTROL_PATHS.events, { event_type: 'job_created', source_id: 'src_000003' });
		expect(more).toEqual([]);
		const job = jobSchema.strict().parse(event.event_data);
		expect(job.source_id).toBe('src_000003');
		expect(await ok(jobSchema, `/jobs/${job.job_id}`)).toEqual(job);
	});

	it('job_updated and job_deleted on a chosen job, or on a random job of a source', async () => {
		const [updated] = await demoEvents(MOCK_CONTROL_PATHS.events, { event_type: 'job_updated', job_id: 'job_0000010' });
		expect(updated.event_data).toMatchObject({ job_id: 'job_0000010', job_title: expect.stringMatching(/\(updated\)$/) });
		expect(await ok(jobSchema, '/jobs/job_0000010')).toEqual(updated.event_data);
		const [deleted] = await demoEvents(MOCK_CONTROL_PATHS.events, { event_type: 'job_deleted', job_id: 'job_0000010' });
		expect(deleted.event_data.deleted_at).toEqual(expect.any(Number));
		expect((await call('/jobs/job_0000010')).status).toBe(404);
		const source = [...mock.service.store.jobsBySource.entries()].find(([, jobs]) => jobs.length > 0)![0];
		const [random] = await demoEvents(MOCK_CONTROL_PATHS.events, { event_type: 'job_deleted', source_id: source });
		expect(random.event_data.source_id).toBe(source);
	});

	it('signal of a chosen type on a chosen source, listed by the API', async () => {
		const place = { group: 'problems', category: 'it', type: 'outdated-legacy-systems' };
		const [event] = await demoEvents(MOCK_CONTROL_PATHS.events, { event_type: 'signal', source_id: 'src_000005', signal: place });
		const signal = signalSchema.strict().parse(event.event_data);
		expect(signal.info).toEqual(place);
		expect(signal.source_id).toBe('src_000005');
		const listed = (await call('/signals/problems/it/outdated-legacy-systems?active_only=false&direct_only=false&per_page=1000')).json as { signals: { signal_id: string }[] };
		expect(listed.signals.map((s) => s.signal_id)).toContain(signal.signal_id);
	});

	it('goes through the delivery engine like a cycle', async () => {
		mock.service.webhooks.settings.create('acc_demo', { url: 'http://127.0.0.1:9/unreachable', event_types: ['job_created'] }, 0);
		expect((await post(MOCK_CONTROL_PATHS.events, { event_type: 'job_created' })).status).toBe(200);
		// Queued for the setting at once (not idle); the attempts themselves are the engine's business (tested in test/trigger).
		const state = await Promise.race([mock.service.webhooks.engine.idle().then(() => 'idle'), Promise.resolve('queued')]);
		expect(state).toBe('queued');
	});

	it('answers 400 on a bad body and 404 on an unknown job or source', async () => {
		for (const [body, message] of [
			[{}, /event_type: /],
			[{ event_type: 'job_moved' }, /event_type: /],
			[{ event_type: 'job_updated', job_id: 'job_0000001', source_id: 'src_000001' }, /job_id or source_id, not both/],
			[{ event_type: 'job_created', job_id: 'job_0000001' }, /only job_updated, job_deleted take one/],
			[{ event_type: 'signal', job_id: 'job_0000001' }, /only job_updated, job_deleted take one/],
			[{ event_type: 'job_created', signal: { group: 'problems', category: 'it', type: 'outdated-legacy-systems' } }, /only signal takes signal/],
			[{ event_type: 'signal', signal: { group: 'problems', category: 'it', type: 'low-conversion-rates' } }, /no such signal type/],
			[{ event_type: 'signal', signal: { group: 'problems' } }, /signal\.category: /],
		] as const) {
			expectApiError(await post(MOCK_CONTROL_PATHS.events, body), 400, message);
		}
		expectApiError(await post(MOCK_CONTROL_PATHS.events, { event_type: 'job_deleted', job_id: 'job_9999999' }), 404, /No job with id "job_9999999"/);
		expectApiError(await post(MOCK_CONTROL_PATHS.events, { event_type: 'signal', source_id: 'src_nope' }), 404, /No source with id "src_nope"/);
	});
});

describe('cycleInterval', () => {
	it('runs cycles on a timer until close()', async () => {
		const service = await createMockService({ ...SMALL, cycleInterval: 0.05 });
		try {
			const before = service.store.signals.length;
			// Three signals per cycle; wait for two cycles, at most 20 s (the machine may be busy).
			const deadline = Date.now() + 20_000;
			while (service.store.signals.length < before + 6 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
			expect(service.store.signals.length).toBeGreaterThanOrEqual(before + 6);
		} finally {
			service.close();
		}
		const after = service.store.signals.length;
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(service.store.signals.length).toBe(after);
	});
});
