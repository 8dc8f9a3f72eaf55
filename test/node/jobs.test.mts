// Job → Get, Get Many for Source, Search, Get Filters through n8n-core's engine against the in-process mock.
import { describe, expect, it } from 'vitest';
import { JOB_CATEGORIES } from '../../contract/job-categories';
import { MOCK_APP_URL, SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { allByCursor, allSearched, api, NODE_TYPE } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

const job = (operation: string, parameters: Record<string, unknown>, onError?: 'continueRegularOutput') =>
	runNode({
		type: NODE_TYPE,
		parameters: { resource: 'job', operation, output: 'raw', ...parameters },
		credentials: { jobSignalsApi: mock.credentials },
		onError,
	});

/** The demo account's source with the most jobs. */
function busiestSource() {
	const { store } = mock.service;
	const demo = store.accountList()[0];
	const tracked = [...store.sources.values()].filter((s) => store.tracks(demo.account_id, s.source_id));
	return tracked.sort((a, b) => (store.jobsBySource.get(b.source_id)?.length ?? 0) - (store.jobsBySource.get(a.source_id)?.length ?? 0))[0];
}

describe('Job → Get', () => {
	it('returns the job the API returns', async () => {
		const source = busiestSource();
		const expected = (await api(`/sources/${source.url_source}/jobs`)).data as Record<string, unknown>[];
		const run = await job('get', { jobId: expected[3].job_id });
		expect(run.items.map((i) => i.json)).toEqual([expected[3]]);
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('an unknown id says which and what to do next; an empty id is refused before any call', async () => {
		const next = 'Check the Job ID ("job_nope"). The job may also have been deleted: the API no longer returns deleted jobs. Job → Search or Job → Get Many for Source list the current job IDs.';
		const run = await job('get', { jobId: 'job_nope' });
		expect(run.error?.message).toBe('No job with id "job_nope"');
		expect(run.error?.description).toBe(next);
		expect((run.error as { httpCode?: string }).httpCode).toBe('404');
		const empty = await job('get', { jobId: '  ' });
		expect(empty.error?.message).toBe('Job ID is required');
		const cont = await job('get', { jobId: 'job_nope' }, 'continueRegularOutput');
		expect(cont.items).toEqual([{ json: { error: 'No job with id "job_nope"', errorDescription: next, httpCode: '404' }, pairedItem: { item: 0 } }]);
	});

	it('a job deleted by a cycle answers 404 with the same next step', async () => {
		const { store } = mock.service;
		const demo = store.accountList()[0].account_id;
		const before = new Set(store.jobs.keys());
		let deleted: string | undefined;
		for (let cycle = 0; cycle < 20 && deleted === undefined; cycle++) {
			const { events } = (await (await fetch(`${MOCK_APP_URL}/__mock/process`, { method: 'POST', headers: { 'content-type': 'application/json' } })).json()) as { events: { account_id: string; event_type: string; event_data: { job_id?: string } }[] };
			deleted = events.find((e) => e.account_id === demo && e.event_type === 'job_deleted' && before.has(String(e.event_data.job_id)))?.event_data.job_id;
		}
		expect(deleted).toBeDefined();
		const run = await job('get', { jobId: deleted });
		expect((run.error as { httpCode?: string }).httpCode).toBe('404');
		expect(run.error?.description).toMatch(/may also have been deleted.*Job → Search/);
	});
});

describe('Job → Get Many for Source', () => {
	it('Return All by domain follows the cursor to the end and matches the API record for record', async () => {
		const source = busiestSource();
		const run = await job('getAllForSource', { source: { __rl: true, mode: 'domain', value: source.url_source }, returnAll: true });
		const calls = mock.requests().length;
		const expected = await allByCursor(`/sources/${source.url_source}/jobs`, 'cursor_job_id');
		expect(expected.length).toBeGreaterThan(100);
		expect(run.items.map((i) => i.json)).toEqual(expected);
		expect(calls).toBe(Math.ceil(expected.length / 100));
	});

	it('by source ID gives the same jobs; a pasted URL is reduced to its domain', async () => {
		const source = busiestSource();
		const byId = await job('getAllForSource', { source: { __rl: true, mode: 'id', value: source.source_id }, returnAll: true });
		const byUrl = await job('getAllForSource', {
			source: { __rl: true, mode: 'domain', value: `https://www.${source.url_source.toUpperCase()}/careers?x=1` },
			returnAll: true,
		});
		expect(byId.items.length).toBeGreaterThan(100);
		expect(byUrl.items.map((i) => i.json)).toEqual(byId.items.map((i) => i.json));
		expect(mock.requests().some((r) => new URL(r.url).pathname === `/v2/sources/id/${source.source_id}/jobs`)).toBe(true);
	});

	it('Limit stops the cursor walk as soon as it has enough', async () => {
		const source = busiestSource();
		const run = await job('getAllForSource', { source: { __rl: true, mode: 'domain', value: source.url_source }, returnAll: false, limit: 101 });
		expect(run.items).toHaveLength(101);
		expect(mock.requests()).toHaveLength(2);
	});

	it('bad and unknown sources give errors that name them', async () => {
		const notDomain = await job('getAllForSource', { source: { __rl: true, mode: 'domain', value: 'not a domain' }, returnAll: true });
		expect(notDomain.error?.message).toBe('"not a domain" is not a domain');
		const unknown = await job('getAllForSource', { source: { __rl: true, mode: 'domain', value: 'unknown-company.example' }, returnAll: true });
		expect(unknown.error?.message).toBe('The service tracks no company with the domain unknown-company.example');
		const badId = await job('getAllForSource', { source: { __rl: true, mode: 'id', value: 'src/../x' }, returnAll: true });
		expect(badId.error?.message).toBe('"src/../x" is not a source ID');
	});
});

describe('Job → Search', () => {
	it('Return All walks the offset pages and matches the API record for record', async () => {
		const run = await job('search', { returnAll: true });
		const calls = mock.requests().length;
		const expected = await allSearched({});
		const { metrics } = await api('/jobs');
		expect(expected).toHaveLength((metrics as { count_jobs: number }).count_jobs);
		expect(run.items.map((i) => i.json)).toEqual(expected);
		// count_jobs ends the walk: no trailing empty page.
		expect(calls).toBe(Math.ceil(expected.length / 100));
	});

	it('passes search syntax, locations and repeated job-function categories through unchanged', async () => {
		const categories = [JOB_CATEGORIES.find((c) => c.includes(','))!, 'Sales'];
		const parameters = { search: '+engineer|manager,-intern', locations: 'Europe', categories, returnAll: true };
		const run = await job('search', parameters);
		const sent = new URL(mock.requests()[0].url);
		expect(sent.searchParams.getAll('categories')).toEqual(categories);
		expect(sent.searchParams.get('search')).toBe('+engineer|manager,-intern');
		const expected = await allSearched({ search: parameters.search, locations: 'Europe', categories });
		expect(expected.length).toBeGreaterThan(0);
		expect(run.items.map((i) => i.json)).toEqual(expected);
		for (const item of run.items) expect((item.json.categories as string[]).some((c) => categories.includes(c))).toBe(true);
	});

	it('Limit 150 takes two offset pages', async () => {
		const run = await job('search', { returnAll: false, limit: 150 });
		expect(run.items).toHaveLength(150);
		expect(mock.requests().map((r) => new URL(r.url).searchParams.get('offset'))).toEqual(['0', '100']);
	});

	it('no match is an empty result, not an error', async () => {
		const run = await job('search', { search: 'zzzz-no-such-term-zzzz', returnAll: true });
		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([]);
	});
});

describe('Job → Get Filters', () => {
	it('returns the account\'s filter options as one item', async () => {
		const run = await job('getFilters', {});
		expect(run.items.map((i) => i.json)).toEqual([await api('/jobs/filters')]);
	});
});
