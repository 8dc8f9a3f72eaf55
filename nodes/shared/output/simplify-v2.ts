/**
 * Simplify: the flat shape of a signal, a job or a source (docs/action-node.md, "Simplify").
 * Off, the operations return the service's objects untouched, so nothing here
 * runs and a raw walk costs what it did before the option existed.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { signalCategoryName, signalTypeName } from '../contract';
import { companyOf, evidenceOf, iso, sourceProfileOf } from '../record-parts';

export function simplifySignal(signal: IDataObject): IDataObject {
	const info = (signal.info ?? {}) as IDataObject;
	const jobs = (signal.jobs_list ?? []) as IDataObject[];
	const group = String(info.group ?? '');
	const category = String(info.category ?? '');
	const type = String(info.type ?? '');
	return {
		signal_id: signal.signal_id,
		...companyOf(signal, 'source_name'),
		source_id: signal.source_id,
		group,
		category,
		category_name: signalCategoryName(group, category),
		type,
		type_name: signalTypeName(type),
		severity: signal.signal_severity,
		match: signal.signal_match,
		classification: signal.signal_classification,
		recency: signal.signal_recency,
		date: signal.date,
		evidence: evidenceOf(signal),
		job_titles: jobs.map((job) => job.job_title),
		job_links: jobs.map((job) => job.url_job),
		current_value: signal.current_value,
		previous_value: signal.previous_value,
		start_at: signal.signal_start_at,
		start_at_iso: iso(signal.signal_start_at),
		recent_at: signal.signal_recent_at,
		recent_at_iso: iso(signal.signal_recent_at),
	};
}

export function simplifyJob(job: IDataObject): IDataObject {
	const out: IDataObject = {
		job_id: job.job_id,
		title: job.job_title,
		...companyOf(job, 'source_name'),
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
	};
	if (job.deleted_at !== undefined) {
		out.deleted_at = job.deleted_at;
		out.deleted_at_iso = iso(job.deleted_at);
	}
	return out;
}

export function simplifySource(source: IDataObject): IDataObject {
	return {
		...sourceProfileOf(source),
		logo: source.url_logo,
		job_count: source.count_jobboard_jobs,
		job_count_at: source.count_jobbard_jobs_success_at,
		job_count_at_iso: iso(source.count_jobbard_jobs_success_at),
		created_at: source.created_at,
		created_at_iso: iso(source.created_at),
		updated_at: source.updated_at,
		updated_at_iso: iso(source.updated_at),
	};
}

/**
 * The operation's results as the Simplify switch asks. The switch exists from
 * node version 2 on; version 1 workflows keep the raw objects they were built on.
 */
export function applySimplify<T extends IDataObject | IDataObject[]>(
	context: IExecuteFunctions,
	itemIndex: number,
	simplify: (record: IDataObject) => IDataObject,
	result: T,
): T {
	if (context.getNodeParameter('simple', itemIndex, false) !== true) return result;
	return (Array.isArray(result) ? result.map(simplify) : simplify(result)) as T;
}
