// New Job and Updated Job for one source (cursor pages): exactly once across cycles, restarts and budget-limited polls.
import { getResponse, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { MOCK_API_URL, SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { expectExactlyOnce, idsOf, processCycle, serviceCalls, trigger, type CycleEvent } from './setup.mts';

// Four sources: every cycle creates, updates and deletes jobs of each fairly often.
const mock = useMockService({ ...SMALL_MOCK, sources: 4, jobs: 1200, rateLimit: 1_000_000 });

const sourceIds = () => [...mock.service.store.sources.keys()].sort();
const ofSource = (sourceId: string, event: 'newJob' | 'updatedJob' = 'newJob') => ({
	event,
	jobsFrom: 'source',
	source: { __rl: true, mode: 'id', value: sourceId },
});
const eventIds = (events: CycleEvent[], type: string, sourceId: string) =>
	events.filter((e) => e.event_type === type && e.event_data.source_id === sourceId).map((e) => String(e.event_data.job_id));

describe('poll trigger: one source', () => {
	it('every job created for the source appears in exactly one poll, by domain and by id, across cycles and restarts', async () => {
		const [sourceId] = sourceIds();
		const domain = mock.service.store.sources.get(sourceId)!.url_source;
		const byDomain = { event: 'newJob', jobsFrom: 'source', source: { __rl: true, mode: 'domain', value: `https://www.${domain}/careers` } };
		let pollers = [trigger(mock, ofSource(sourceId)), trigger(mock, byDomain)];
		for (const p of pollers) await p.tick();
		const events: CycleEvent[] = [];
		const outputs: string[][][] = [[], []];
		for (let cycle = 1; cycle <= 20; cycle++) {
			events.push(...(await processCycle(mock)));
			if (cycle % 6 === 0) pollers = pollers.map((p, i) => trigger(mock, i === 0 ? ofSource(sourceId) : byDomain, { state: p.state() }));
			for (const [i, p] of pollers.entries()) outputs[i].push(idsOf(await p.tick(), 'job_id'));
		}
		const created = eventIds(events, 'job_created', sourceId);
		expect(created.length).toBeGreaterThan(10);
		// Each cycle polls right after: no job is deleted before a poll could see it.
		for (const output of outputs) expectExactlyOnce(output, created);
	});

	it('a careers subdomain link (the API\'s url_job form) resolves to the tracked domain once, then polls it like the domain itself', async () => {
		const [sourceId] = sourceIds();
		const domain = mock.service.store.sources.get(sourceId)!.url_source;
		const link = { event: 'newJob', jobsFrom: 'source', source: { __rl: true, mode: 'domain', value: `https://careers.${domain}/jobs/123-engineer` } };
		const byLink = trigger(mock, link);
		const byId = trigger(mock, ofSource(sourceId));
		const from = mock.answers().length;
		for (const p of [byLink, byId]) expect((await p.tick()).error).toBeUndefined();
		// The subdomain first (404), then the registered domain: the locator's order.
		const probes = serviceCalls(mock, from).map((c) => `${c.status} ${c.path}`);
		expect(probes.slice(0, 2)).toEqual([`404 /v2/sources/careers.${domain}/jobs`, `200 /v2/sources/${domain}/jobs`]);
		const outputs: string[][][] = [[], []];
		for (let cycle = 1; cycle <= 6; cycle++) {
			await processCycle(mock);
			const before = mock.answers().length;
			outputs[0].push(idsOf(await byLink.tick(), 'job_id'));
			// Resolved once: later polls never ask for the subdomain again.
			expect(serviceCalls(mock, before).filter((c) => c.path.includes('careers.'))).toEqual([]);
			outputs[1].push(idsOf(await byId.tick(), 'job_id'));
		}
		expect(outputs[1].flat().length).toBeGreaterThan(0);
		expect(outputs[0]).toEqual(outputs[1]);
	});

	it('a subdomain of a domain the service does not track fails with what to do next', async () => {
		const tick = await trigger(mock, { event: 'newJob', jobsFrom: 'source', source: { __rl: true, mode: 'domain', value: 'https://careers.not-tracked.example/jobs/1' } }).tick();
		expect(tick.items).toBeUndefined();
		expect(tick.error?.message).toBe('The service tracks no company with the domain careers.not-tracked.example or not-tracked.example');
		expect(tick.error?.description).toMatch(/main website domain/);
	});

	it('a domain or source ID the service does not track fails as the action node says it: what happened, what to do next', async () => {
		const naked = await trigger(mock, { event: 'newJob', jobsFrom: 'source', source: { __rl: true, mode: 'domain', value: 'nobody.example' } }).tick();
		expect(naked.items).toBeUndefined();
		expect(naked.error?.message).toBe('The service tracks no company with the domain nobody.example');
		expect(naked.error?.description).toMatch(/main website domain/);
		const byId = await trigger(mock, { event: 'newJob', jobsFrom: 'source', source: { __rl: true, mode: 'id', value: 'src_nobody' } }).tick();
		expect(byId.error?.message).toBe('The service tracks no company with the source ID src_nobody');
		expect(byId.error?.description).toMatch(/^Source IDs are the source_id/);
	});

	it('a signal category the service does not know fails with the action node\'s next step', async () => {
		const tick = await trigger(mock, { event: 'newSignal', group: 'problems', category: 'no-such-category' }).tick();
		expect(tick.items).toBeUndefined();
		expect(tick.error?.description).toMatch(/^The service does not know this group, category or type\. Pick one from the lists/);
	});

	it('a backlog larger than the budget resumes from the service\'s cursor', async () => {
		const [sourceId] = sourceIds();
		const poller = trigger(mock, ofSource(sourceId), { budgetMs: 1 });
		await poller.tick();
		const events: CycleEvent[] = [];
		for (let cycle = 0; cycle < 120; cycle++) events.push(...(await processCycle(mock)));
		const created = eventIds(events, 'job_created', sourceId);
		const deleted = new Set(eventIds(events, 'job_deleted', sourceId));
		expect(created.length).toBeGreaterThan(100);
		const outputs: string[][] = [];
		for (let poll = 0; poll < 4; poll++) outputs.push(idsOf(await poller.tick(), 'job_id'));
		expect(outputs[0]).toHaveLength(100);
		const cursors = serviceCalls(mock).filter((c) => c.query.has('cursor_job_id'));
		expect(cursors.length).toBeGreaterThan(0);
		expectExactlyOnce(outputs, created.filter((id) => !deleted.has(id)));
	});

	it('Updated Job emits each job updated since the last poll once, not new jobs; an idle poll costs one request', async () => {
		const [sourceId] = sourceIds();
		let poller = trigger(mock, ofSource(sourceId, 'updatedJob'));
		await poller.tick();
		const expected: string[][] = [];
		const outputs: string[][] = [];
		for (let cycle = 1; cycle <= 16; cycle++) {
			const events = await processCycle(mock);
			// Gone before the poll if deleted in the same cycle; a New Job event, not an update, if created in it.
			const skipped = new Set([...eventIds(events, 'job_deleted', sourceId), ...eventIds(events, 'job_created', sourceId)]);
			expected.push(eventIds(events, 'job_updated', sourceId).filter((id) => !skipped.has(id)));
			if (cycle % 5 === 0) poller = trigger(mock, ofSource(sourceId, 'updatedJob'), { state: poller.state() });
			outputs.push(idsOf(await poller.tick(), 'job_id'));
		}
		expect(expected.flat().length).toBeGreaterThan(5);
		// Each poll emits exactly the jobs updated in the cycle before it: no new job, nothing twice.
		expect(outputs.map((ids) => [...ids].sort())).toEqual(expected.map((ids) => [...new Set(ids)].sort()));
		const from = mock.answers().length;
		expect((await poller.tick()).items).toBeUndefined();
		expect(serviceCalls(mock, from)).toHaveLength(1);
	});

	it('a cursor that points back to a page already read fails the poll visibly instead of walking in circles', async () => {
		const [sourceId] = sourceIds();
		const poller = trigger(mock, { ...ofSource(sourceId), includeExisting: true });
		// The second page answers with its own cursor: the walk would read it forever.
		const handlers = mock.service.handlers;
		const loop = http.get(`${MOCK_API_URL}/sources/id/:id/jobs`, async ({ request }) => {
			const real = await getResponse(handlers.filter((h) => h !== loop), request);
			const body = (await real!.json()) as Record<string, unknown>;
			const asked = new URL(request.url).searchParams.get('cursor_job_id');
			if (asked !== null) body.cursor_job_id = asked;
			return HttpResponse.json(body);
		});
		handlers.unshift(loop);
		try {
			const tick = await poller.tick();
			expect(tick.items).toBeUndefined();
			expect(tick.error?.message).toMatch(/sent the walk back to cursor_job_id/);
			expect(poller.state()).toBe('{}');
			expect(serviceCalls(mock)).toHaveLength(2);
		} finally {
			handlers.splice(handlers.indexOf(loop), 1);
		}
	});
});
