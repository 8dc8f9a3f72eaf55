/** The jobs envelope (cursor pages) and its metrics. */
import { HttpResponse } from 'msw';
import type { Job } from '../contract/schemas';
import { SEED_EPOCH } from '../data/generate';
import type { StoredJob } from '../data/model';

/** metrics.updated_at: the newest change among the matching jobs (the seed epoch when there are none). */
export function jobsMetrics(matching: readonly StoredJob[]): { count_jobs: number; updated_at: number } {
	let updated = matching.length > 0 ? 0 : SEED_EPOCH;
	for (const j of matching) if (j.job.updated_at > updated) updated = j.job.updated_at;
	return { count_jobs: matching.length, updated_at: updated };
}

export function jobsEnvelope(data: readonly StoredJob[], metrics: ReturnType<typeof jobsMetrics>, cursor?: string): Response {
	const body: { data: Job[]; cursor_job_id?: string; metrics: typeof metrics } = { data: data.map((j) => j.job), metrics };
	if (cursor !== undefined) body.cursor_job_id = cursor;
	return HttpResponse.json(body);
}
