// In a real n8n, with the package installed as a community package: Simplify, Include Totals, Start At (resuming a
// walk from an earlier node's resume_at, by expression) and the Job Tags / Industry Tags filters, in one workflow run
// through the REST API of the run's shared n8n (harness/n8n/shared-n8n.mts; as the editor's Execute workflow runs it)
// against the file's standalone mock over real HTTP; every output compared with the mock's own answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { N8nInstance } from '../../harness/n8n/deployment.mts';
import { CREDENTIAL, DEMO_TOKEN, executeWorkflow, nodeOutput, type RealN8n, type RunData } from '../../harness/n8n/real-n8n.mts';
import { useSharedN8n } from '../../harness/n8n/shared-n8n.mts';

type Json = Record<string, unknown>;

let deployment: N8nInstance;
let n8n: RealN8n;
let run: RunData;
/** The filters the workflow's tag node uses, read from the account's Get Filters answer before the import. */
let tags: { jobTags: string[]; industryTags: string[] };

const SOURCE_ID = 'src_000002';

async function api(path: string, query: Record<string, string | number | boolean | string[]> = {}): Promise<Json> {
	const url = new URL(`${n8n.mock.apiUrl}${path}`);
	for (const [name, value] of Object.entries(query)) for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(one));
	const response = await fetch(url, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
	if (!response.ok) throw new Error(`${url}: ${response.status}`);
	return (await response.json()) as Json;
}

/** The job search from `offset` to its end, page by page. */
async function searchedFrom(offset: number, query: Record<string, string | string[]> = {}): Promise<Json[]> {
	const out: Json[] = [];
	for (;;) {
		const data = (await api('/jobs', { ...query, offset: offset + out.length })).data as Json[];
		if (data.length === 0) return out;
		out.push(...data);
	}
}

/** The source's jobs from the page `cursor` names (the first page without one) to the end. */
async function jobsFrom(cursor?: string): Promise<Json[]> {
	const out: Json[] = [];
	do {
		const body = await api(`/sources/id/${SOURCE_ID}/jobs`, cursor ? { cursor_job_id: cursor } : {});
		out.push(...(body.data as Json[]));
		cursor = body.cursor_job_id as string | undefined;
	} while (cursor);
	return out;
}

/** Signal pages from `page` at 50 per page to the last. */
async function signalsFrom(page: number): Promise<Json[]> {
	const out: Json[] = [];
	for (; ; page++) {
		const body = await api('/signals/problems', { direct_only: false, active_only: false, per_page: 50, page });
		out.push(...(body.signals as Json[]));
		if (!(body.pagination as Json).has_next) return out;
	}
}

/** The workflow's Job Signals nodes (node version 2), by name: parameters, and the node whose output starts them. */
function nodes(): { name: string; after?: string; parameters: Json }[] {
	const search = { resource: 'job', operation: 'search', search: 'engineer', simple: false };
	const signals = { resource: 'signal', operation: 'getAll', group: 'problems', category: '', directOnly: false, activeOnly: false, simple: false };
	const jobsOfSource = { resource: 'job', operation: 'getAllForSource', source: { __rl: true, mode: 'id', value: SOURCE_ID }, simple: false };
	const resumeAt = (node: string, field: string) => `={{ $('${node}').first().json.resume_at.${field} }}`;
	return [
		{ name: 'Raw', parameters: { ...search, returnAll: false, limit: 5 } },
		{ name: 'Simplified', parameters: { ...search, returnAll: false, limit: 5, simple: true } },
		{ name: 'Search first 150', parameters: { ...search, returnAll: false, limit: 150, options: { includeTotals: true } } },
		{ name: 'Search rest', after: 'Search first 150', parameters: { ...search, returnAll: true, options: { startOffset: resumeAt('Search first 150', 'offset') } } },
		{ name: 'Signals first 100', parameters: { ...signals, returnAll: false, limit: 100, options: { includeTotals: true, pageSize: 50 } } },
		{ name: 'Signals rest', after: 'Signals first 100', parameters: { ...signals, returnAll: true, options: { pageSize: 50, startPage: resumeAt('Signals first 100', 'page') } } },
		{ name: 'Jobs first 100', parameters: { ...jobsOfSource, returnAll: false, limit: 100, options: { includeTotals: true } } },
		{ name: 'Jobs rest', after: 'Jobs first 100', parameters: { ...jobsOfSource, returnAll: true, options: { startCursor: resumeAt('Jobs first 100', 'cursor') } } },
		{ name: 'Tagged', parameters: { resource: 'job', operation: 'search', simple: false, returnAll: true, jobTags: tags.jobTags, industryTags: tags.industryTags } },
	];
}

function optionsWorkflow() {
	const list = nodes();
	const connections: Record<string, object> = {
		Start: { main: [list.filter((n) => !n.after).map((n) => ({ node: n.name, type: 'main', index: 0 }))] },
	};
	for (const n of list.filter((one) => one.after)) connections[n.after as string] = { main: [[{ node: n.name, type: 'main', index: 0 }]] };
	return {
		id: 'e2eOptions',
		name: 'e2e options',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: 'e2eOptions-t', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			...list.map((n, i) => ({
				id: `e2eOptions-${i}`,
				name: n.name,
				type: 'n8n-nodes-job-signals.jobSignals',
				typeVersion: 2,
				position: [n.after ? 400 : 200, i * 100],
				// A resuming node runs once, not once per item of the node before it.
				...(n.after ? { executeOnce: true } : {}),
				parameters: n.parameters,
				credentials: { jobSignalsApi: CREDENTIAL },
			})),
		],
		connections,
		pinData: {},
	};
}

beforeAll(async () => {
	// 20 sources: each has a few hundred jobs, so a source's jobs span several cursor pages.
	deployment = await useSharedN8n(['--jobs', '5000', '--signals', '5000', '--sources', '20', '--rate-limit', '0'], [], async (started) => {
		n8n = started;
		const filters = await api('/jobs/filters');
		tags = { jobTags: (filters.job_tags as string[]).slice(0, 1), industryTags: (filters.industry_tags as string[]).slice(0, 2) };
		await n8n.importWorkflows([optionsWorkflow()]);
	});
	run = await executeWorkflow(n8n, 'e2eOptions');
});

afterAll(async () => {
	await deployment?.close();
});

describe('list options in a real n8n', () => {
	it('Simplify off is the service\'s job unchanged; on, the flat shape of the same jobs', async () => {
		const raw = nodeOutput(run, 'Raw');
		expect(raw).toEqual(((await api('/jobs', { search: 'engineer' })).data as Json[]).slice(0, 5));
		const simplified = nodeOutput(run, 'Simplified');
		expect(simplified).toHaveLength(5);
		simplified.forEach((item, i) => {
			const job = raw[i];
			expect(item).toMatchObject({ job_id: job.job_id, title: job.job_title, company: job.source_name, domain: job.url_source, link: job.url_job, job_functions: job.categories, tags: job.job_tags });
			expect(item.created_at_iso).toBe(new Date((job.created_at as number) * 1000).toISOString());
			expect(item).not.toHaveProperty('job_title');
			expect(item).not.toHaveProperty('url_job');
		});
	});

	it('Include Totals: one totals item, first, with the service\'s own count_jobs / count_signals, and where to resume', async () => {
		const search = nodeOutput(run, 'Search first 150');
		expect(search.filter((item) => 'totals' in item)).toHaveLength(1);
		expect(search[0]).toEqual({ totals: (await api('/jobs', { search: 'engineer' })).metrics, resume_at: { offset: 150 } });
		expect(search).toHaveLength(151);
		const signals = nodeOutput(run, 'Signals first 100');
		expect(signals.filter((item) => 'totals' in item)).toHaveLength(1);
		const firstPage = await api('/signals/problems', { direct_only: false, active_only: false, per_page: 50, page: 1 });
		expect(signals[0]).toEqual({ totals: firstPage.pagination, resume_at: { page: 3 } });
		expect((signals[0].totals as Json).count_signals).toBeGreaterThan(100);
		const jobs = nodeOutput(run, 'Jobs first 100');
		expect(jobs.filter((item) => 'totals' in item)).toHaveLength(1);
		expect((jobs[0].totals as Json).count_jobs).toBe(((await api(`/sources/id/${SOURCE_ID}/jobs`)).metrics as Json).count_jobs);
	});

	it('Start At resumes each walk where the earlier node\'s resume_at says: exactly the mock\'s remaining items', async () => {
		const searchFirst = nodeOutput(run, 'Search first 150').slice(1);
		const searchRest = nodeOutput(run, 'Search rest');
		expect(searchRest).toEqual(await searchedFrom(150, { search: 'engineer' }));
		expect([...searchFirst, ...searchRest]).toEqual(await searchedFrom(0, { search: 'engineer' }));

		const signalsRest = nodeOutput(run, 'Signals rest');
		expect(signalsRest).toEqual(await signalsFrom(3));
		expect([...nodeOutput(run, 'Signals first 100').slice(1), ...signalsRest]).toEqual(await signalsFrom(1));

		const jobsFirst = nodeOutput(run, 'Jobs first 100');
		const cursor = (jobsFirst[0].resume_at as Json).cursor as string;
		expect(cursor).toBe((await api(`/sources/id/${SOURCE_ID}/jobs`)).cursor_job_id);
		const jobsRest = nodeOutput(run, 'Jobs rest');
		expect(jobsRest.length).toBeGreaterThan(0);
		expect(jobsRest).toEqual(await jobsFrom(cursor));
		expect([...jobsFirst.slice(1), ...jobsRest]).toEqual(await jobsFrom());
	});

	it('Job Tags and Industry Tags: the same jobs as the mock\'s own filtered search', async () => {
		const expected = await searchedFrom(0, { job_tags: tags.jobTags, industry_tags: tags.industryTags });
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(((await api('/jobs')).metrics as Json).count_jobs as number);
		expect(nodeOutput(run, 'Tagged')).toEqual(expected);
	});
});
