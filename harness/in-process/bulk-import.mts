/**
 * A bulk import as the mock's data file holds it (the `data` option): one source whose jobs share one
 * created_at second (the newest), and older jobs on the seconds before it. With the mock's `sources: 0`
 * they are its only source and jobs. Used by the scale tests and `npm run bench:poll-scale`.
 */
import type { DataFileContent } from 'job-signals-mock-server';

/** The bulk second: newer than the mock's seeded data (2026-09-21). */
export const BULK_SECOND = 1_795_000_000;

export const BULK_SOURCE = {
	source_id: 'src_bulk',
	url_source: 'bulk-import.example',
	name: 'Bulk Import',
	description: 'A board whose jobs came in one import.',
	location: 'Berlin, Germany',
	url_logo: 'https://logo.example.com/bulk-import.example.png',
	industry_tags: ['logistics'],
	count_jobbard_jobs_success_at: BULK_SECOND,
	created_at: BULK_SECOND - 1_000_000,
	updated_at: BULK_SECOND,
};

const job = (id: string, created: number) => ({
	job_id: id,
	job_title: 'Warehouse Associate',
	url_job: `https://careers.bulk-import.example/jobs/${id}`,
	description: 'Bulk Import is hiring a Warehouse Associate in Berlin.',
	location: 'Berlin, Germany',
	region: 'Europe',
	categories: ['Operations' as const],
	job_tags: ['full-time'],
	source_id: BULK_SOURCE.source_id,
	url_source: BULK_SOURCE.url_source,
	source_name: BULK_SOURCE.name,
	created_at: created,
	updated_at: created,
});

/** `bulk` jobs (`job_bulk_00000`…) on BULK_SECOND, `older` jobs (`job_older_000`…) one second apart below it. */
export function bulkImport(bulk: number, older: number): DataFileContent {
	return {
		sources: [BULK_SOURCE],
		jobs: [
			...Array.from({ length: bulk }, (_, i) => job(`job_bulk_${String(i).padStart(5, '0')}`, BULK_SECOND)),
			...Array.from({ length: older }, (_, i) => job(`job_older_${String(i).padStart(3, '0')}`, BULK_SECOND - 1 - i)),
		],
	};
}
