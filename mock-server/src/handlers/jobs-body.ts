/** The jobs envelope (cursor and search pages) and its metrics. */
import { SEED_EPOCH } from '../data/generate';
import type { StoredJob } from '../data/model';
import { jsonText } from '../http/respond';
import { envelopeJson } from './record-json';

/** metrics.updated_at: the newest change among the matching jobs (the seed epoch when there are none). */
export function jobsMetrics(matching: readonly StoredJob[]): { count_jobs: number; updated_at: number } {
	let updated = matching.length > 0 ? 0 : SEED_EPOCH;
	for (const j of matching) if (j.job.updated_at > updated) updated = j.job.updated_at;
	return { count_jobs: matching.length, updated_at: updated };
}

/** `{data, cursor_job_id?, metrics}` for cursor pages; search pages have no cursor. */
export function jobsEnvelope(data: readonly StoredJob[], metrics: ReturnType<typeof jobsMetrics>, cursor?: string): Response {
	return jsonText(envelopeJson({}, 'data', data.map((j) => j.job), { cursor_job_id: cursor, metrics }));
}
