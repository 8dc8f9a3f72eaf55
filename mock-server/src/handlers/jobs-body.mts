/** The jobs envelope (cursor and search pages) and its metrics. */
import { SEED_EPOCH } from '../data/generate.mts';
import { inSlices, type Pause } from '../base/work.mts';
import type { StoredJob } from '../data/model.mts';
import { jsonChunks } from '../http/respond.mts';
import { envelopeChunks } from './record-json.mts';

export interface JobsMetrics {
	count_jobs: number;
	updated_at: number;
}

/** metrics.updated_at: the newest change among the matching jobs (the seed epoch when there are none); in slices, as a search may match 100,000. */
export async function jobsMetrics(matching: readonly StoredJob[], pause?: Pause): Promise<JobsMetrics> {
	let updated = matching.length > 0 ? 0 : SEED_EPOCH;
	await inSlices(matching, (j) => {
		if (j.job.updated_at > updated) updated = j.job.updated_at;
	}, pause);
	return { count_jobs: matching.length, updated_at: updated };
}

/** `{data, cursor_job_id?, metrics}` for cursor pages; search pages have no cursor. */
export function jobsEnvelope(data: readonly StoredJob[], metrics: JobsMetrics, cursor?: string): Response {
	return jsonChunks(jobsEnvelopeChunks(data, metrics, cursor));
}

/** The envelope as UTF-8 chunks, for a handler that keeps answers it may give again. */
export function jobsEnvelopeChunks(data: readonly StoredJob[], metrics: JobsMetrics, cursor?: string): Uint8Array<ArrayBuffer>[] {
	return envelopeChunks({}, 'data', data.map((j) => j.job), { cursor_job_id: cursor, metrics });
}
