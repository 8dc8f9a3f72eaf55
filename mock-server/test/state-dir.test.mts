// --state-dir in-process: a restart keeps webhook settings, subscribers, the data cycles and events changed, faults and the delivery log; reset empties it.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_CONTROL_PATHS } from '../src/base/contract.mts';
import { createMockService } from '../src/service.mts';
import { STATE_FILE } from '../src/state/state-folder.mts';
import { startReceiver, type Receiver } from './receiver.mts';
import { APP_URL, call, DEMO_TOKEN, SMALL, useRestarts } from './harness.mts';

const { newDir, start, stop } = useRestarts({ ...SMALL, timeScale: 0.1 }, 'job-signals-state-test-');
let receiver: Receiver;

beforeAll(async () => {
	// Deliveries go to a real receiver.
	receiver = await startReceiver((_request, _body, response) => void response.writeHead(200).end());
});
afterAll(async () => {
	await receiver.close();
});

const app = (path: string, method = 'GET', body?: unknown) => call(path, { base: APP_URL, token: null, method, body });
const settings = () => call('/api/webhooks', { base: APP_URL });

describe('--state-dir (in-process)', () => {
	it('a restart keeps webhook settings, subscribers, cycle and event data, faults and the delivery log', async () => {
		const dir = newDir();
		const first = await start(dir);
		expect(first.restored).toEqual({ records: 0, deliveries: 0 });
		expect((await call('/api/webhooks', { base: APP_URL, method: 'POST', body: { url: receiver.url, event_types: ['job_created', 'signal'] } })).status).toBe(201);
		const gone = await call('/api/webhooks', { base: APP_URL, method: 'POST', body: { url: `${receiver.url}/gone`, event_types: ['signal'] } });
		expect((await call(`/api/webhooks/${(gone.json as { webhook_id: string }).webhook_id}`, { base: APP_URL, method: 'DELETE' })).status).toBe(204);
		expect((await call('/api/subscribers/upload', { base: APP_URL, token: null, method: 'POST', body: { email_addresses: 'kept@example.org', access_token: DEMO_TOKEN } })).status).toBe(200);
		const cycle = (await app(MOCK_CONTROL_PATHS.process, 'POST')).json as { events: { event_type: string; event_data: { job_id?: string; signal_id?: string } }[] };
		const deleted = (await app(MOCK_CONTROL_PATHS.events, 'POST', { event_type: 'job_deleted', job_id: 'job_0000001' })).json as { events: unknown[] };
		expect(deleted.events.length).toBeGreaterThan(0);
		await first.webhooks.engine.idle();
		const faults = [{ path: '/v2/collections', status: 503 }];
		expect((await app(MOCK_CONTROL_PATHS.faults, 'PUT', { faults })).status).toBe(200);

		const before = {
			settings: (await settings()).json,
			subscribers: (await app('/__mock/accounts/acc_demo/subscribers')).json,
			deliveries: (await app(MOCK_CONTROL_PATHS.deliveries)).json,
			faults: (await app(MOCK_CONTROL_PATHS.faults)).json,
			jobs: [...first.store.jobs.values()].map((j) => j.job),
			signals: first.store.signals,
		};
		expect((before.settings as { data: unknown[] }).data).toHaveLength(1);
		// Whatever each attempt's outcome on a busy machine: the log itself must come back.
		expect((before.deliveries as { data: unknown[] }).data.length).toBeGreaterThan(0);
		stop(first);

		const second = await start(dir);
		expect(second.restored!.records).toBeGreaterThan(0);
		expect((await settings()).json).toEqual(before.settings);
		expect((await app('/__mock/accounts/acc_demo/subscribers')).json).toEqual(before.subscribers);
		expect((await app(MOCK_CONTROL_PATHS.deliveries)).json).toEqual(before.deliveries);
		expect((await app(MOCK_CONTROL_PATHS.faults)).json).toEqual(before.faults);
		expect((await call('/collections')).status).toBe(503);
		expect([...second.store.jobs.values()].map((j) => j.job).sort(byId('job_id'))).toEqual(before.jobs.sort(byId('job_id')));
		expect(second.store.signals).toEqual(before.signals);
		expect((await call('/jobs/job_0000001')).status).toBe(404);
		// The first cycle's new jobs are served, and the next cycle hands out new ids (the cycle runner's position was kept).
		const createdBefore = cycle.events.filter((e) => e.event_type === 'job_created').map((e) => e.event_data.job_id!);
		await app(MOCK_CONTROL_PATHS.faults, 'DELETE');
		for (const id of createdBefore) expect((await call(`/jobs/${id}`)).status).toBe(200);
		const next = (await app(MOCK_CONTROL_PATHS.process, 'POST')).json as typeof cycle;
		const createdNext = next.events.filter((e) => e.event_type === 'job_created').map((e) => e.event_data.job_id!);
		expect(createdNext.filter((id) => createdBefore.includes(id))).toEqual([]);
		expect(createdNext.every((id) => id > [...createdBefore].sort().at(-1)!)).toBe(true);
	});

	it('a restart keeps domain moves (the old domain still names the new one), job board counts and signals turned inactive', async () => {
		const dir = newDir();
		const first = await start(dir);
		const moves = (await app(MOCK_CONTROL_PATHS.process, 'POST', { domain_changes: 2 })).json as { events: { event_data: { previous_value?: string; current_value?: string; info?: { type: string } } }[] };
		const moved = moves.events.map((e) => e.event_data).filter((d) => d.info?.type === 'domain-url-change');
		expect(moved.length).toBeGreaterThanOrEqual(2);
		const signal = first.store.signals.find((s) => s.signal_recency === 'active' && s.jobs_list.length > 0 && s.jobs_list.every((j) => first.store.jobs.has(j.job_id)))!;
		for (const job of signal.jobs_list) await app(MOCK_CONTROL_PATHS.events, 'POST', { event_type: 'job_deleted', job_id: job.job_id });
		expect(first.store.signals.find((s) => s.signal_id === signal.signal_id)?.signal_recency).toBe('inactive');
		const before = { sources: [...first.store.sources.values()], signals: first.store.signals, jobs: [...first.store.jobs.values()].map((j) => j.job) };
		stop(first);

		const second = await start(dir);
		expect([...second.store.sources.values()].sort(byId('source_id'))).toEqual(before.sources.sort(byId('source_id')));
		expect(second.store.signals).toEqual(before.signals);
		expect([...second.store.jobs.values()].map((j) => j.job).sort(byId('job_id'))).toEqual(before.jobs.sort(byId('job_id')));
		for (const { previous_value, current_value } of moved) {
			expect((await call(`/sources/${current_value}`)).status).toBe(200);
			const old = await call(`/sources/${previous_value}`);
			expect(old.status).toBe(404);
			expect(JSON.stringify(old.json)).toContain('moved to');
		}
	});

	it('reset empties the folder: the next start is the seed', async () => {
		const dir = newDir();
		const first = await start(dir);
		await call('/api/webhooks', { base: APP_URL, method: 'POST', body: { url: receiver.url, event_types: ['signal'] } });
		await app(MOCK_CONTROL_PATHS.process, 'POST');
		await first.webhooks.engine.idle();
		await app(MOCK_CONTROL_PATHS.reset, 'POST');
		stop(first);
		const second = await start(dir);
		expect(second.restored).toEqual({ records: 0, deliveries: 0 });
		expect((await settings()).json).toEqual({ data: [] });
	});

	it('starts on a folder saved with a fault rule on /__mock (accepted before such rules were refused), leaving that rule out', async () => {
		const dir = newDir();
		const first = await start(dir);
		const kept = { path: '/v2/collections', status: 503 };
		expect((await app(MOCK_CONTROL_PATHS.faults, 'PUT', { faults: [kept] })).status).toBe(200);
		stop(first);
		const db = new DatabaseSync(join(dir, STATE_FILE));
		const saved = db.prepare("SELECT value FROM records WHERE kind = 'faults'").get() as { value: string };
		const old = [{ path: '/__mock', status: 500, rate: 1, latency_ms: 0, drop: false, after: 0 }, ...JSON.parse(saved.value)];
		db.prepare("UPDATE records SET value = ? WHERE kind = 'faults'").run(JSON.stringify(old));
		db.close();
		await start(dir);
		expect((await app(MOCK_CONTROL_PATHS.faults)).json).toEqual({ faults: [{ ...kept, rate: 1, latency_ms: 0, drop: false, after: 0, remaining: null }] });
	});

	it('refuses a folder written over another data set, and a folder another service holds', async () => {
		const dir = newDir();
		const first = await start(dir);
		await expect(createMockService({ ...SMALL, stateDir: dir })).rejects.toThrow(/another mock uses this state folder/);
		stop(first);
		await expect(createMockService({ ...SMALL, seed: 8, stateDir: dir })).rejects.toThrow(/holds changes to another data set/);
		// The refusal let go of the folder: the right flags open it in the same process.
		stop(await start(dir));
	});
});

function byId<K extends string>(key: K) {
	return (a: Record<K, string>, b: Record<K, string>) => a[key].localeCompare(b[key]);
}
