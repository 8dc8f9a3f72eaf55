/**
 * The fields of every record the nodes return, as dotted paths (`info.group` for a field of a nested object; a list is
 * one field). Plain data only (no imports): the nodes bundle it for their Selected Fields lists. The zod schemas in
 * schemas.ts are the source of the same shapes; test/node/record-fields.test.mts fails when the two disagree.
 */
export const RECORD_FIELDS = {
	signal: [
		'signal_id',
		'created_at',
		'date',
		'info.group',
		'info.category',
		'info.type',
		'evidence_list',
		'jobs_list',
		'signal_match',
		'signal_severity',
		'signal_classification',
		'signal_recency',
		'signal_start_at',
		'signal_recent_at',
		'current_value',
		'previous_value',
		'source_id',
		'source_name',
		'source_description',
		'url_source',
	],
	job: [
		'job_id',
		'job_title',
		'url_job',
		'description',
		'location',
		'region',
		'categories',
		'job_tags',
		'source_id',
		'url_source',
		'source_name',
		'created_at',
		'updated_at',
		'deleted_at',
	],
	source: [
		'source_id',
		'url_source',
		'name',
		'description',
		'location',
		'url_logo',
		'industry_tags',
		'count_jobboard_jobs',
		'count_jobbard_jobs_success_at',
		'created_at',
		'updated_at',
	],
	collection: ['collection_id', 'name', 'description', 'count_sources', 'created_at'],
	/** The webhook event envelope around `event_data` (a job or a signal). */
	webhookEvent: ['webhook_event_id', 'webhook_id', 'organization_id', 'event_type', 'created_at', 'updated_at'],
} as const;

/**
 * Each record's id: the field Selected Fields keeps unless the user removes it (n8n's UX guidelines: when the user
 * picks fields, include the id). One of the kind's own fields above; test/node/record-fields.test.mts checks it.
 */
export const RECORD_ID_FIELDS = {
	signal: 'signal_id',
	job: 'job_id',
	source: 'source_id',
	collection: 'collection_id',
	webhookEvent: 'webhook_event_id',
} as const satisfies { [K in keyof typeof RECORD_FIELDS]: (typeof RECORD_FIELDS)[K][number] };

export type RecordKind = Exclude<keyof typeof RECORD_FIELDS, 'webhookEvent'>;
