/**
 * Simplified output (docs/action-node.md, "Output"): at most 10 fields per record, the ones a person or an AI agent needs first,
 * every time as ISO 8601 (people and models read it; the epoch seconds stay in Raw). The same shapes in the action
 * node, the webhook trigger and the Poll Trigger. The webhook trigger adds `event_type` and `webhook_event_id` (what
 * a workflow routes and deduplicates on), so a job or a signal keeps at most 8 fields here and an event item at most 10.
 */
import type { IDataObject } from 'n8n-workflow';
import type { RecordKind } from '../contract';
import { companyOf, evidenceOf, iso, sourceProfileOf, textOf } from '../record-parts';

/** The most fields a simplified record has (n8n's UX guidelines ask for at most 10). */
export const MAX_SIMPLIFIED_FIELDS = 10;

/** Problems carry no values (empty strings); a change reads "before → after". */
function change(signal: IDataObject): string {
	const previous = textOf(signal.previous_value ?? '');
	const current = textOf(signal.current_value ?? '');
	return previous === '' && current === '' ? '' : `${previous} → ${current}`;
}

/**
 * A signal: who (company, domain), what (type: its category follows from it), how severe, when (date), why
 * (evidence), and for the changes group what changed. Left out: group and category (the type names them), match
 * (Minimum Match filters on it), classification and recency (Direct Only and Active Only select them), the jobs list
 * (the evidence quotes it), start and recent times, source id and description.
 */
function signal(record: IDataObject): IDataObject {
	return {
		signal_id: record.signal_id,
		...companyOf(record, 'source_name'),
		type: ((record.info ?? {}) as IDataObject).type,
		severity: record.signal_severity,
		date: record.date,
		evidence: evidenceOf(record),
		change: change(record),
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
		...companyOf(record, 'source_name'),
		location: record.location,
		job_functions: record.categories,
		link: record.url_job,
		created_at: iso(record.created_at),
	};
}

/** A company: who (name, domain, description, place, industries), how much it hires (job_count), and when it last changed. Left out: logo, the count's time, created_at. */
function source(record: IDataObject): IDataObject {
	return {
		...sourceProfileOf(record),
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

/** Each record kind's shape under Output: Simplified (version 2's Simplify switch has its own, simplify-v2.ts). */
export const SIMPLIFIED_SHAPES: Record<RecordKind, (record: IDataObject) => IDataObject> = { signal, job, source, collection };
