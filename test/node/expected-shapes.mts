/**
 * The documented simplified shapes (docs/action-node.md, "Output" and "Simplify"), stated for the tests as where each
 * field is read from: a field of the service's record, or a function of it. Written apart from nodes/shared, so a
 * renamed, dropped or added field there fails the tests that compare against these.
 */
type Json = Record<string, unknown>;
type Read = string | ((record: Json) => unknown);

/** Epoch seconds as ISO 8601. */
export const iso = (seconds: unknown) => new Date((seconds as number) * 1000).toISOString();
const isoOf = (field: string) => (record: Json) => iso(record[field]);

const reading = (fields: Record<string, Read>) => (record: Json): Json =>
	Object.fromEntries(Object.entries(fields).map(([name, read]) => [name, typeof read === 'string' ? record[read] : read(record)]));

const evidence = (record: Json) => (record.evidence_list as string[]).join('\n');
const change = (s: Json) => (s.current_value === '' && s.previous_value === '' ? '' : `${String(s.previous_value)} → ${String(s.current_value)}`);

/** Output → Simplified (node version 3, and the triggers' record fields). */
export const SIMPLIFIED = {
	signal: reading({ signal_id: 'signal_id', company: 'source_name', domain: 'url_source', type: (s) => (s.info as Json).type, severity: 'signal_severity', date: 'date', evidence, change }),
	job: reading({ job_id: 'job_id', title: 'job_title', company: 'source_name', domain: 'url_source', location: 'location', job_functions: 'categories', link: 'url_job', created_at: isoOf('created_at') }),
	source: reading({ source_id: 'source_id', company: 'name', domain: 'url_source', description: 'description', location: 'location', industries: 'industry_tags', job_count: 'count_jobboard_jobs', updated_at: isoOf('updated_at') }),
	collection: reading({ collection_id: 'collection_id', name: 'name', description: 'description', source_count: 'count_sources', created_at: isoOf('created_at') }),
};

const list = (field: string) => (s: Json) => (s.jobs_list as Json[]).map((job) => job[field]);

/** Simplify (node version 2): every time keeps its epoch seconds and gets an ISO twin. Signal names are checked apart. */
export const SIMPLIFY_V2 = {
	signal: reading({
		signal_id: 'signal_id', company: 'source_name', domain: 'url_source', source_id: 'source_id', group: (s) => (s.info as Json).group, category: (s) => (s.info as Json).category,
		type: (s) => (s.info as Json).type, severity: 'signal_severity', match: 'signal_match', classification: 'signal_classification', recency: 'signal_recency', date: 'date', evidence,
		job_titles: list('job_title'), job_links: list('url_job'), current_value: 'current_value', previous_value: 'previous_value',
		start_at: 'signal_start_at', start_at_iso: isoOf('signal_start_at'), recent_at: 'signal_recent_at', recent_at_iso: isoOf('signal_recent_at'),
	}),
	job: reading({
		job_id: 'job_id', title: 'job_title', company: 'source_name', domain: 'url_source', source_id: 'source_id', location: 'location', region: 'region',
		job_functions: 'categories', tags: 'job_tags', link: 'url_job', description: 'description',
		created_at: 'created_at', created_at_iso: isoOf('created_at'), updated_at: 'updated_at', updated_at_iso: isoOf('updated_at'),
	}),
	source: reading({
		source_id: 'source_id', company: 'name', domain: 'url_source', description: 'description', location: 'location', industries: 'industry_tags', logo: 'url_logo',
		job_count: 'count_jobboard_jobs', job_count_at: 'count_jobbard_jobs_success_at', job_count_at_iso: isoOf('count_jobbard_jobs_success_at'),
		created_at: 'created_at', created_at_iso: isoOf('created_at'), updated_at: 'updated_at', updated_at_iso: isoOf('updated_at'),
	}),
};
