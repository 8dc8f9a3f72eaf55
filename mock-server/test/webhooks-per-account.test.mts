// Webhook deliveries over real HTTP follow the API's rule per account: a job event reaches an account's webhook only when the account sees the job (tracked source, the account's own filters).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_CONTROL_PATHS, webhookEventSchema, type Job } from '../src/base/contract.mts';
import { startReceiver, type Receiver } from './receiver.mts';
import { APP_URL, call, DEMO_TOKEN, SMALL, useMock, VOLUME_TOKEN } from './harness.mts';

// 1 s of the spec becomes 100 ms: deliveries 100 ms apart, a 500 ms timeout.
const mock = useMock({ ...SMALL, timeScale: 0.1 });
const received = new Map<string, Map<string, Job>>();
const receivers: Receiver[] = [];

beforeAll(async () => {
	for (const name of ['demo', 'volume']) {
		const bodies = new Map<string, Job>();
		received.set(name, bodies);
		receivers.push(
			await startReceiver((_request, body, response) => {
				const envelope = webhookEventSchema.strict().parse(JSON.parse(body.toString()));
				// Retries repeat the envelope: keyed by its id.
				bodies.set(envelope.webhook_event_id, envelope.event_data as Job);
				response.writeHead(200).end();
			}, `/${name}`),
		);
	}
});
afterAll(async () => {
	await Promise.all(receivers.map((r) => r.close()));
});

describe('webhook deliveries per account', () => {
	it('the high-volume account\'s webhook gets the jobs it sees (its regions), the demo account\'s every job', async () => {
		const [demoUrl, volumeUrl] = receivers.map((r) => r.url);
		for (const [url, token] of [[demoUrl, DEMO_TOKEN], [volumeUrl, VOLUME_TOKEN]]) {
			const answer = await call('/api/webhooks', { base: APP_URL, token, method: 'POST', body: { url, event_types: ['job_created', 'job_deleted'] } });
			expect(answer.status).toBe(201);
		}
		const answer = await call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST', body: { created: 12, updated: 0, deleted: 4, signals: 0 } });
		expect(answer.status).toBe(200);
		await mock.service.webhooks.engine.idle();
		const { store } = mock.service;
		const volume = store.accountList().find((a) => a.account_id === 'acc_volume')!;
		const demoJobs = [...received.get('demo')!.values()];
		const volumeJobs = [...received.get('volume')!.values()];
		expect(demoJobs).toHaveLength(16);
		const expected = demoJobs.filter((j) => store.tracks(volume.account_id, j.source_id) && volume.filters.regions.includes(j.region));
		expect(volumeJobs.map((j) => j.job_id).sort()).toEqual(expected.map((j) => j.job_id).sort());
		// Both sides of the rule happened: some jobs reached the account, some of its tracked sources' jobs did not.
		expect(volumeJobs.length).toBeGreaterThan(0);
		expect(demoJobs.filter((j) => store.tracks(volume.account_id, j.source_id)).length).toBeGreaterThan(volumeJobs.length);
	});
});
