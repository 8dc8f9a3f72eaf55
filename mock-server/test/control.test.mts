// Control routes: /__mock/accounts, /__mock/process (a cycle visible through the API), /__mock/reset, /__mock/deliveries.
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import {
	MOCK_CONTROL_PATHS, WEBHOOK_EVENT_TYPES, jobSchema, jobsEnvelopeSchema, jobSearchEnvelopeSchema, signalSchema, signalsEnvelopeSchema, type Job, type Signal,
} from '../src/base/contract.mts';
import { APP_URL, call, DEMO_TOKEN, expectApiError, ok, SECOND_TOKEN, useMock, VOLUME_TOKEN } from './harness.mts';

const mock = useMock();
const control = (path: string, method = 'GET') => call(path, { base: APP_URL, token: null, method });

const accountsSchema = z.strictObject({
	data: z.array(
		z.strictObject({
			account_id: z.string(), organization_id: z.string(), name: z.string(), token: z.string(), job_tags: z.array(z.string()),
			job_board: z.boolean(), filters: z.strictObject({ regions: z.array(z.string()) }),
			rate_limit: z.strictObject({ limit: z.number().int(), remaining: z.number().int(), resets_in_ms: z.number().nullable() }).nullable(),
		}),
	),
});
const eventsSchema = z.strictObject({
	events: z.array(z.strictObject({ account_id: z.string(), event_type: z.enum(WEBHOOK_EVENT_TYPES), event_data: z.unknown() })),
});

async function processCycle() {
	const answer = await control(MOCK_CONTROL_PATHS.process, 'POST');
	expect(answer.status).toBe(200);
	const { events } = eventsSchema.parse(answer.json);
	const jobs = (type: string) => events.filter((e) => e.event_type === type).map((e) => ({ account: e.account_id, job: jobSchema.strict().parse(e.event_data) as Job }));
	const signals = events.filter((e) => e.event_type === 'signal').map((e) => ({ account: e.account_id, signal: signalSchema.strict().parse(e.event_data) as Signal }));
	return { events, created: jobs('job_created'), updated: jobs('job_updated'), deleted: jobs('job_deleted'), signals };
}

describe('control routes', () => {
	it('/__mock/accounts lists the three demo accounts with their tokens', async () => {
		const { data } = accountsSchema.parse((await control(MOCK_CONTROL_PATHS.accounts)).json);
		expect(data.map((a) => a.token)).toEqual([DEMO_TOKEN, SECOND_TOKEN, VOLUME_TOKEN]);
		expect(new Set(data.map((a) => a.organization_id)).size).toBe(3);
		expect(data.map((a) => [a.job_board, a.filters.regions])).toEqual([[true, []], [true, []], [false, ['Europe', 'North America']]]);
	});

	it('/__mock/process creates, updates and deletes jobs and adds signals, all visible through the API', async () => {
		const { store } = mock.service;
		const countBefore = (await ok(jobSearchEnvelopeSchema, '/jobs')).metrics.count_jobs;
		const { created, updated, deleted, signals } = await processCycle();
		expect(created.length).toBeGreaterThan(0);
		expect(updated.length).toBeGreaterThan(0);
		expect(deleted.length).toBeGreaterThan(0);
		expect(signals.length).toBeGreaterThan(0);
		const demo = <T extends { account: string }>(list: T[]) => list.filter((e) => e.account === 'acc_demo');
		// A job the cycle created may also be updated or deleted by it; check each against its last event.
		const laterIds = new Set([...updated, ...deleted].map((e) => e.job.job_id));
		const deletedIds = new Set(deleted.map((e) => e.job.job_id));

		for (const { job } of demo(created).filter((e) => !laterIds.has(e.job.job_id))) {
			expect(await ok(jobSchema, `/jobs/${job.job_id}`)).toEqual(job);
			const first = await ok(jobsEnvelopeSchema, `/sources/id/${job.source_id}/jobs`);
			expect(first.data.map((j) => j.job_id)).toContain(job.job_id);
			expect(first.data[0].created_at).toBe(job.created_at);
		}
		for (const { job } of demo(updated).filter((e) => !deletedIds.has(e.job.job_id))) {
			const now = await ok(jobSchema, `/jobs/${job.job_id}`);
			expect(now).toEqual(job);
			expect(job.updated_at).toBeGreaterThan(job.created_at);
		}
		for (const { job } of demo(deleted)) {
			expect(job.deleted_at).toBeDefined();
			expectApiError(await call(`/jobs/${job.job_id}`), 404);
		}
		const countAfter = (await ok(jobSearchEnvelopeSchema, '/jobs')).metrics.count_jobs;
		expect(countAfter).toBe(countBefore + demo(created).length - demo(deleted).length);
		for (const { signal } of demo(signals)) {
			const { info } = signal;
			const body = await ok(signalsEnvelopeSchema, `/signals/${info.group}/${info.category}/${info.type}?direct_only=false&active_only=false&per_page=1000`);
			expect(body.signals).toContainEqual(signal);
			for (const ref of signal.jobs_list) expect(store.jobById(ref.job_id)?.source_id).toBe(signal.source_id);
		}
	});

	it('/__mock/reset returns the data to the seed', async () => {
		const { created, deleted } = await processCycle();
		const [newJob, goneJob] = [created[0].job, deleted[0].job];
		const answer = await control(MOCK_CONTROL_PATHS.reset, 'POST');
		expect(answer).toMatchObject({ status: 200, json: { reset: true } });
		expectApiError(await call(`/jobs/${newJob.job_id}`), 404);
		expect((await ok(jobSchema, `/jobs/${goneJob.job_id}`)).job_id).toBe(goneJob.job_id);
		// The same seed again: the next cycle creates the same job ids.
		const again = await processCycle();
		expect(again.created.map((c) => c.job.job_id)).toEqual(created.map((c) => c.job.job_id));
	});

	it('/__mock/deliveries answers the delivery log (empty with no webhook settings)', async () => {
		await processCycle();
		const answer = await control(MOCK_CONTROL_PATHS.deliveries);
		expect(answer).toMatchObject({ status: 200, json: { data: [] } });
	});
	it('/__mock/accounts/:id/subscribers shows what uploads did, per account; an unknown account is 404', async () => {
		const path = (id: string) => MOCK_CONTROL_PATHS.subscribers.replace(':account_id', id);
		const before = (await control(path('acc_demo'))).json as { data: { email: string }[] };
		const upload = await call('/api/subscribers/upload', { base: APP_URL, token: null, method: 'POST', body: { email_addresses: 'New.Person@Example.com', access_token: DEMO_TOKEN } });
		expect(upload.status).toBe(200);
		const after = (await control(path('acc_demo'))).json as { data: { email: string; tags: string[] }[] };
		expect(after.data.map((s) => s.email)).toEqual([...before.data.map((s) => s.email), 'new.person@example.com']);
		const second = (await control(path('acc_second'))).json as { data: { email: string }[] };
		expect(second.data.map((s) => s.email)).not.toContain('new.person@example.com');
		expectApiError(await control(path('acc_nobody')), 404, /acc_nobody/);
	});
});
