// Cycles keep the data realistic: domain moves (source, jobs, signal, the old domain's answer), signals turning inactive when their evidence jobs are gone, job board counts, and events only for jobs each account sees.
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import {
	MOCK_CONTROL_PATHS, WEBHOOK_EVENT_TYPES, jobsEnvelopeSchema, signalSchema, signalsEnvelopeSchema, sourceSchema, type Signal,
} from '../src/base/contract.mts';
import { APP_URL, call, expectApiError, ok, SECOND_TOKEN, useMock, walkCursor } from './harness.mts';

const mock = useMock();
const post = (path: string, body?: unknown) => call(path, { base: APP_URL, token: null, method: 'POST', body });
const eventsSchema = z.strictObject({
	events: z.array(z.strictObject({ account_id: z.string(), event_type: z.enum(WEBHOOK_EVENT_TYPES), event_data: z.record(z.string(), z.unknown()) })),
});
const NOTHING_ELSE = { created: 0, updated: 0, deleted: 0, signals: 0 };

async function runCycle(body: unknown) {
	const answer = await post(MOCK_CONTROL_PATHS.process, body);
	expect(answer.status, JSON.stringify(answer.json)).toBe(200);
	return eventsSchema.parse(answer.json).events;
}

/** A source the demo account tracks and the second does not, with jobs. */
function demoOnlySource() {
	const { store } = mock.service;
	const source = [...store.sources.values()].find((s) => !store.tracks('acc_second', s.source_id) && (store.jobsBySource.get(s.source_id)?.length ?? 0) > 3);
	if (!source) throw new Error('the seed should have such a source');
	return source;
}

describe('domain moves', () => {
	it('move url_source on the source and its jobs, keep source_id, and add a domain-url-change signal from the real old domain to the new one', async () => {
		const before = demoOnlySource();
		const events = await runCycle({ ...NOTHING_ELSE, domain_changes: 1, source_id: before.source_id });
		const signals = events.filter((e) => e.event_type === 'signal' && e.account_id === 'acc_demo').map((e) => signalSchema.strict().parse(e.event_data));
		expect(signals).toHaveLength(1);
		const [signal] = signals;
		expect(signal.info).toEqual({ group: 'changes', category: 'url', type: 'domain-url-change' });
		expect(signal.previous_value).toBe(before.url_source);
		expect(signal.current_value).not.toBe(before.url_source);
		expect([signal.url_source, signal.source_id, signal.signal_recency, signal.signal_classification]).toEqual([signal.current_value, before.source_id, 'active', 'direct']);
		// No job events: the jobs did not change on their board.
		expect(events.filter((e) => e.event_type !== 'signal')).toEqual([]);
		const moved = await ok(sourceSchema, `/sources/${signal.current_value}`);
		expect(moved).toMatchObject({ source_id: before.source_id, url_source: signal.current_value, name: before.name, count_jobboard_jobs: before.count_jobboard_jobs });
		expect(await ok(sourceSchema, `/sources/id/${before.source_id}`)).toEqual(moved);
		const pages = await walkCursor(jobsEnvelopeSchema, `/sources/${signal.current_value}/jobs`, 'cursor_job_id');
		const jobs = pages.flatMap((p) => p.data);
		expect(jobs).toHaveLength(before.count_jobboard_jobs);
		for (const job of jobs) expect([job.url_source, job.source_id, job.updated_at]).toEqual([signal.current_value, before.source_id, signal.created_at]);
		const listed = await ok(signalsEnvelopeSchema, '/signals/changes/url/domain-url-change?per_page=1000');
		expect(listed.signals).toContainEqual(signal);
	});

	it('the old domain answers 404 naming the new one (to accounts that track the source; as unknown to others), also after a second move', async () => {
		const source = demoOnlySource();
		const first = source.url_source;
		await runCycle({ ...NOTHING_ELSE, domain_changes: 1, source_id: source.source_id });
		const second = mock.service.store.sources.get(source.source_id)!.url_source;
		await runCycle({ ...NOTHING_ELSE, domain_changes: 1, source_id: source.source_id });
		const third = mock.service.store.sources.get(source.source_id)!.url_source;
		expect(new Set([first, second, third]).size).toBe(3);
		for (const old of [first, second]) {
			for (const path of [`/sources/${old}`, `/sources/${old}/jobs`]) {
				expectApiError(await call(path), 404, new RegExp(`"${old}".*moved to "${third}".*${source.source_id}`));
				const other = await call(path, { token: SECOND_TOKEN });
				expectApiError(other, 404);
				expect(JSON.stringify(other.json)).not.toContain(third);
			}
		}
		await ok(sourceSchema, `/sources/${third}`);
	});

	it('seeded domain-url-change signals name a former domain the API knows, never another source\'s', async () => {
		const { store } = mock.service;
		const seeded = store.signals.filter((s) => s.info.type === 'domain-url-change');
		expect(seeded.length).toBeGreaterThan(0);
		for (const signal of seeded.slice(0, 5)) {
			expect(store.sourcesByDomain.has(signal.previous_value)).toBe(false);
			const current = store.sources.get(signal.source_id)!.url_source;
			expectApiError(await call(`/sources/${signal.previous_value}`), 404, new RegExp(`moved to "${current}"`));
		}
	});

	it('a signal event asked for with type domain-url-change is a real move', async () => {
		const source = demoOnlySource();
		const answer = await post(MOCK_CONTROL_PATHS.events, { event_type: 'signal', source_id: source.source_id, signal: { group: 'changes', category: 'url', type: 'domain-url-change' } });
		expect(answer.status).toBe(200);
		const [event] = eventsSchema.parse(answer.json).events;
		const signal = signalSchema.strict().parse(event.event_data);
		const now = mock.service.store.sources.get(source.source_id)!;
		expect([signal.previous_value, signal.current_value]).toEqual([source.url_source, now.url_source]);
		expect(now.url_source).not.toBe(source.url_source);
	});

	it('cycles never invent a domain change: domain_changes is 0 in the usual cycle, and random signals are never of that type; the count is bounded like the others', async () => {
		const events = [...(await runCycle({})), ...(await runCycle({ signals: 200 }))];
		expect(events.filter((e) => e.event_type === 'signal').length).toBeGreaterThanOrEqual(200);
		expect(events.filter((e) => (e.event_data as Partial<Signal>).info?.type === 'domain-url-change')).toEqual([]);
		for (const bad of [-1, 1.5, 1001, '1']) {
			expectApiError(await post(MOCK_CONTROL_PATHS.process, { domain_changes: bad }), 400, /domain_changes/);
		}
	});
});

describe('signal recency', () => {
	it('an active signal turns inactive when the last of its jobs is deleted, and stays listed with active_only=false', async () => {
		const { store } = mock.service;
		const signal = store.signals.find((s) => s.signal_recency === 'active' && s.signal_classification === 'direct' && s.info.group === 'problems' && s.jobs_list.length >= 2);
		if (!signal) throw new Error('the seed should have such a signal');
		const path = `/signals/problems/${signal.info.category}/${signal.info.type}?per_page=1000`;
		const find = async (query: string) => (await ok(signalsEnvelopeSchema, `${path}${query}`)).signals.find((s) => s.signal_id === signal.signal_id);
		const [last, ...others] = signal.jobs_list;
		for (const job of others) {
			const answer = await post(MOCK_CONTROL_PATHS.events, { event_type: 'job_deleted', job_id: job.job_id });
			expect(answer.status).toBe(200);
		}
		expect((await find(''))?.signal_recency).toBe('active');
		const answer = await post(MOCK_CONTROL_PATHS.events, { event_type: 'job_deleted', job_id: last.job_id });
		// The recency change itself sends no event: only the deletion's.
		expect(eventsSchema.parse(answer.json).events.every((e) => e.event_type === 'job_deleted')).toBe(true);
		expect(await find('')).toBeUndefined();
		const inactive = await find('&active_only=false');
		expect(inactive).toEqual({ ...signal, signal_recency: 'inactive' });
		expect(store.signals.filter((s) => s.signal_id === signal.signal_id)).toHaveLength(1);
	});
});

describe('job board counts', () => {
	it('after 20 cycles every source\'s count_jobboard_jobs equals its listed jobs, and a changed count carries the time of its change', async () => {
		const { store } = mock.service;
		const seeded = new Map([...store.sources.values()].map((s) => [s.source_id, s.count_jobbard_jobs_success_at]));
		const times = new Map<string, number>();
		for (let i = 0; i < 20; i++) {
			for (const e of await runCycle({ domain_changes: 1 })) {
				if (e.account_id !== 'acc_demo' || (e.event_type !== 'job_created' && e.event_type !== 'job_deleted')) continue;
				const job = e.event_data as { source_id: string; updated_at: number };
				times.set(job.source_id, job.updated_at);
			}
		}
		expect(times.size).toBeGreaterThan(20);
		for (const source of store.sources.values()) {
			// The demo account tracks every source without a filter of its own: its list is the source's board.
			const listed = await ok(jobsEnvelopeSchema, `/sources/id/${source.source_id}/jobs`);
			const served = await ok(sourceSchema, `/sources/id/${source.source_id}`);
			expect(served.count_jobboard_jobs, source.source_id).toBe(listed.metrics.count_jobs);
			expect(served.count_jobbard_jobs_success_at).toBe(times.get(source.source_id) ?? seeded.get(source.source_id));
		}
	});
});

describe('events per account', () => {
	it('a job event goes to exactly the accounts that see the job (tracked source, the account\'s own filters); a signal event to those tracking its source', async () => {
		const { store } = mock.service;
		const accounts = store.accountList();
		const events = await runCycle({ created: 300, updated: 50, deleted: 50, signals: 20 });
		const receivers = new Map<string, string[]>();
		for (const e of events) {
			const data = e.event_data as { job_id?: string; signal_id?: string };
			const key = `${e.event_type}|${data.job_id ?? data.signal_id}`;
			receivers.set(key, [...(receivers.get(key) ?? []), e.account_id]);
		}
		const volume = accounts.find((a) => a.filters.regions.length > 0)!;
		let filteredOut = 0;
		for (const e of events.filter((x) => x.account_id === 'acc_demo')) {
			const data = e.event_data as { job_id?: string; signal_id?: string; source_id: string; region?: string };
			const expected = accounts
				.filter((a) => store.tracks(a.account_id, data.source_id))
				.filter((a) => e.event_type === 'signal' || a.filters.regions.length === 0 || a.filters.regions.includes(data.region!))
				.map((a) => a.account_id);
			expect(receivers.get(`${e.event_type}|${data.job_id ?? data.signal_id}`)).toEqual(expected);
			if (e.event_type !== 'signal' && store.tracks(volume.account_id, data.source_id) && !expected.includes(volume.account_id)) filteredOut++;
		}
		// The account's filter did keep some events away, and let others through.
		expect(filteredOut).toBeGreaterThan(0);
		expect(events.some((e) => e.account_id === volume.account_id && e.event_type !== 'signal')).toBe(true);
	});
});
