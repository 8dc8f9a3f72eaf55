// Simplify (node version 2: saved workflows keep these shapes) on every operation that returns signals, jobs or sources, through n8n-core's engine.
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { signalTypeName } from '../../contract/hierarchy';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.ts';
import { runNode } from '../../harness/in-process/workflow.ts';
import { allSignals, api, NODE_TYPE } from './direct';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

type Json = Record<string, unknown>;

const run = (parameters: INodeParameters, typeVersion = 2) =>
	runNode({ type: NODE_TYPE, typeVersion, parameters, credentials: { jobSignalsApi: mock.credentials } });

const iso = (seconds: unknown) => new Date((seconds as number) * 1000).toISOString();

async function aSource() {
	const { data } = await api('/collections');
	const collectionId = (data as Json[])[0].collection_id as string;
	return { collectionId, source: ((await api(`/collections/${collectionId}/sources`)).data as Json[])[0] };
}

describe('Simplify (version 2)', () => {
	it('is on by default in version 2 and gives a signal its flat, documented shape', async () => {
		const raw = (await allSignals('/signals/changes', { direct_only: true, active_only: true })).slice(0, 20);
		const result = await run({ resource: 'signal', operation: 'getAll', group: 'changes', returnAll: false, limit: 20 });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(20);
		result.items.forEach((item, i) => {
			const signal = raw[i];
			const info = signal.info as Json;
			const jobs = signal.jobs_list as Json[];
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json).toEqual({
				signal_id: signal.signal_id,
				company: signal.source_name,
				domain: signal.url_source,
				source_id: signal.source_id,
				group: 'changes',
				category: info.category,
				category_name: expect.any(String),
				type: info.type,
				type_name: signalTypeName(info.type as string),
				severity: signal.signal_severity,
				match: signal.signal_match,
				classification: 'direct',
				recency: 'active',
				date: signal.date,
				evidence: (signal.evidence_list as string[]).join('\n'),
				job_titles: jobs.map((j) => j.job_title),
				job_links: jobs.map((j) => j.url_job),
				current_value: signal.current_value,
				previous_value: signal.previous_value,
				start_at: signal.signal_start_at,
				start_at_iso: iso(signal.signal_start_at),
				recent_at: signal.signal_recent_at,
				recent_at_iso: iso(signal.signal_recent_at),
			});
		});
		const names = new Set(result.items.map((i) => `${String(i.json.category)}=${String(i.json.category_name)}`));
		for (const name of names) expect(['url=URL', 'content=Content', 'tech=Tech', 'location=Location']).toContain(name);
		expect(signalTypeName('domain-url-change')).toBe('Domain URL Change');
		expect(signalTypeName('cash-flow-constraints')).toBe('Cash Flow Constraints');
	});

	it('off returns the service\'s objects unchanged; version 1 nodes stay raw without the option', async () => {
		const raw = (await allSignals('/signals/problems', { direct_only: true, active_only: true })).slice(0, 5);
		const off = await run({ resource: 'signal', operation: 'getAll', group: 'problems', returnAll: false, limit: 5, simple: false });
		expect(off.items.map((i) => i.json)).toEqual(raw);
		const v1 = await run({ resource: 'signal', operation: 'getAll', group: 'problems', returnAll: false, limit: 5 }, 1);
		expect(v1.items.map((i) => i.json)).toEqual(raw);
	});

	it('flattens jobs from Get, Get Many for Source and Search alike', async () => {
		const { source } = await aSource();
		const raw = ((await api(`/sources/${String(source.url_source)}/jobs`)).data as Json[]).slice(0, 3);
		const expected = raw.map((job) => ({
			job_id: job.job_id,
			title: job.job_title,
			company: job.source_name,
			domain: job.url_source,
			source_id: job.source_id,
			location: job.location,
			region: job.region,
			job_functions: job.categories,
			tags: job.job_tags,
			link: job.url_job,
			description: job.description,
			created_at: job.created_at,
			created_at_iso: iso(job.created_at),
			updated_at: job.updated_at,
			updated_at_iso: iso(job.updated_at),
		}));
		const bySource = await run({ resource: 'job', operation: 'getAllForSource', source: { __rl: true, mode: 'id', value: String(source.source_id) }, returnAll: false, limit: 3 });
		expect(bySource.items.map((i) => i.json)).toEqual(expected);
		const one = await run({ resource: 'job', operation: 'get', jobId: String(raw[0].job_id) });
		expect(one.items.map((i) => i.json)).toEqual([expected[0]]);
		const searched = await run({ resource: 'job', operation: 'search', returnAll: false, limit: 4 });
		const rawSearched = ((await api('/jobs')).data as Json[]).slice(0, 4);
		expect(searched.items.map((i) => i.json.job_id)).toEqual(rawSearched.map((j) => j.job_id));
		expect(searched.items.map((i) => i.json.updated_at_iso)).toEqual(rawSearched.map((j) => iso(j.updated_at)));
	});

	it('flattens sources from Get and Get Many in Collection', async () => {
		const { collectionId, source } = await aSource();
		const expected = {
			source_id: source.source_id,
			company: source.name,
			domain: source.url_source,
			description: source.description,
			location: source.location,
			industries: source.industry_tags,
			logo: source.url_logo,
			job_count: source.count_jobboard_jobs,
			job_count_at: source.count_jobbard_jobs_success_at,
			job_count_at_iso: iso(source.count_jobbard_jobs_success_at),
			created_at: source.created_at,
			created_at_iso: iso(source.created_at),
			updated_at: source.updated_at,
			updated_at_iso: iso(source.updated_at),
		};
		const one = await run({ resource: 'source', operation: 'get', source: { __rl: true, mode: 'domain', value: String(source.url_source) } });
		expect(one.items.map((i) => i.json)).toEqual([expected]);
		const many = await run({ resource: 'source', operation: 'getAllInCollection', collection: { __rl: true, mode: 'id', value: collectionId }, returnAll: false, limit: 1 });
		expect(many.items.map((i) => i.json)).toEqual([expected]);
	});
});
