/**
 * Simplified output (README, "Output"): at most 10 fields per record, the ones a person or an AI agent needs first,
 * every time as ISO 8601 (people and models read it; the epoch seconds stay in Raw). The same shapes in the action
 * node, the webhook trigger and the Poll Trigger. The webhook trigger adds `event_type` and `webhook_event_id` (what
 * a workflow routes and deduplicates on), so a job or a signal keeps at most 8 fields here and an event item at most 10.
 */
import type { IDataObject } from 'n8n-workflow';
import type { RecordKind } from '../contract';

/** The most fields a simplified record has (n8n's UX guidelines ask for at most 10). */
export const MAX_SIMPLIFIED_FIELDS = 10;

const iso = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : undefined);

/**
 * A signal: who (company, domain), what (type: its category follows from it), how severe, when (date), why
 * (evidence), and for the changes group what changed. Left out: group and category (the type names them), match
 * (Minimum Match filters on it), classification and recency (Direct Only and Active Only select them), the jobs list
 * (the evidence quotes it), start and recent times, source id and description.
 */
function signal(record: IDataObject): IDataObject {
	const info = (record.info ?? {}) as IDataObject;
	const previous = String(record.previous_value ?? '');
	const current = String(record.current_value ?? '');
	return {
		signal_id: record.signal_id,
		company: record.source_name,
		domain: record.url_source,
		type: info.type,
		severity: record.signal_severity,
		date: record.date,
		evidence: ((record.evidence_list ?? []) as string[]).join('\n'),
		// Problems carry no values (empty strings); a change reads "before → after".
		change: previous === '' && current === '' ? '' : `${previous} → ${current}`,
	};
}

/**
 * A job: what (title, job functions), where (company, domain, location), the link to apply, and when it was posted.
 * Left out: the description (long: an agent pays for every word; Job → Get with Raw has it), updated_at (it also
 * moves on the service's internal processing), region, tags, source id, and deleted_at (the trigger's event_type
 * says job_deleted).
 */
function job(record: IDataObject): IDataObject {
	return {
		job_id: record.job_id,
		title: record.job_title,
		company: record.source_name,
		domain: record.url_source,
		location: record.location,
		job_functions: record.categories,
		link: record.url_job,
		created_at: iso(record.created_at),
	};
}

/** A company: who (name, domain, description, place, industries), how much it hires (job_count), and when it last changed. Left out: logo, the count's time, created_at. */
function source(record: IDataObject): IDataObject {
	return {
		source_id: record.source_id,
		company: record.name,
		domain: record.url_source,
		description: record.description,
		location: record.location,
		industries: record.industry_tags,
		job_count: record.count_jobboard_jobs,
		updated_at: iso(record.updated_at),
	};
}

/** A collection has five fields; the count is renamed as the source's job count is. */
function collection(record: IDataObject): IDataObject {
	return {
		collection_id: record.collection_id,
		name: record.name,
		description: record.description,
		source_count: record.count_sources,
		created_at: iso(record.created_at),
	};
}

export const SIMPLIFY: Record<RecordKind, (record: IDataObject) => IDataObject> = { signal, job, source, collection };
