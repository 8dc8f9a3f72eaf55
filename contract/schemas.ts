/**
 * The API contract as zod schemas: the single description of every body the
 * service sends or accepts. The mock validates incoming parameters with the
 * query schemas; the tests validate every response the mock sends against the
 * response schemas.
 */
import { z } from 'zod/v4';
import { JOB_CATEGORIES, MAX_CATEGORIES_PER_JOB } from './job-categories';
import { SIGNAL_CATEGORIES, SIGNAL_GROUPS } from './hierarchy';
import { LIMITS } from './api';
import type { AnswerName } from './answers';
import type { BodyName, QueryName } from './endpoints';
import { WEBHOOK_EVENT_TYPES } from './events';

const timestamp = z.number().int().nonnegative();
const nakedDomain = z
	.string()
	.regex(/^(?!www\.)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'a naked domain such as example.com');

const ALL_TYPES = SIGNAL_CATEGORIES.flatMap((c) => c.types);

// ---- Signals --------------------------------------------------------------

export const signalInfoSchema = z.object({
	group: z.enum(SIGNAL_GROUPS as [string, ...string[]]),
	category: z.enum(SIGNAL_CATEGORIES.map((c) => c.id) as [string, ...string[]]),
	type: z.enum(ALL_TYPES as [string, ...string[]]),
});

export const signalJobRefSchema = z.object({
	created_at: timestamp,
	job_id: z.string().min(1),
	job_title: z.string(),
	url_job: z.url(),
});

const level = z.union([z.literal(1), z.literal(2), z.literal(3)]);

export const signalSchema = z.object({
	signal_id: z.string().min(1),
	created_at: timestamp,
	date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
	info: signalInfoSchema,
	evidence_list: z.array(z.string()),
	jobs_list: z.array(signalJobRefSchema),
	signal_match: level,
	signal_severity: level,
	signal_classification: z.enum(['direct', 'inferred']),
	signal_recency: z.enum(['active', 'inactive']),
	signal_start_at: timestamp,
	signal_recent_at: timestamp,
	current_value: z.string(),
	previous_value: z.string(),
	source_id: z.string().min(1),
	source_name: z.string(),
	source_description: z.string(),
	url_source: nakedDomain,
});

export const paginationSchema = z.object({
	page: z.number().int().min(1),
	per_page: z.number().int().min(1).max(LIMITS.signalsMaxPerPage),
	count_pages: z.number().int().nonnegative(),
	count_signals: z.number().int().nonnegative(),
	start_index: z.number().int().nonnegative(),
	end_index: z.number().int().nonnegative(),
	has_next: z.boolean(),
	has_prev: z.boolean(),
});

export const signalsEnvelopeSchema = z.object({
	group: z.string(),
	category: z.string().optional(),
	type: z.string().optional(),
	pagination: paginationSchema,
	signals: z.array(signalSchema),
});

/** Query of the three signals endpoints. Booleans accept only `true`/`false`. */
const booleanParam = z.enum(['true', 'false']).transform((v) => v === 'true');
const integerParam = (name: string, min: number, max?: number) =>
	z
		.string()
		.regex(/^\d+$/, `${name} must be a whole number`)
		.transform(Number)
		.pipe(
			max === undefined
				? z.number().int().min(min, `${name} must be at least ${min}`)
				: z
						.number()
						.int()
						.min(min, `${name} must be at least ${min}`)
						.max(max, `${name} must be at most ${max}`),
		);

export const signalsQuerySchema = z.object({
	page: integerParam('page', 1).default(1),
	per_page: integerParam('per_page', 1, LIMITS.signalsMaxPerPage).default(LIMITS.signalsDefaultPerPage),
	direct_only: booleanParam.default(true),
	active_only: booleanParam.default(true),
});

// ---- Jobs and sources -----------------------------------------------------

export const jobSchema = z.object({
	job_id: z.string().min(1),
	job_title: z.string(),
	url_job: z.url(),
	description: z.string(),
	location: z.string(),
	region: z.string(),
	categories: z.array(z.enum(JOB_CATEGORIES)).min(1).max(MAX_CATEGORIES_PER_JOB),
	job_tags: z.array(z.string()),
	source_id: z.string().min(1),
	url_source: nakedDomain,
	source_name: z.string(),
	created_at: timestamp,
	updated_at: timestamp,
	deleted_at: timestamp.optional(),
});

export const jobsMetricsSchema = z.object({
	count_jobs: z.number().int().nonnegative(),
	updated_at: timestamp,
});

export const jobsEnvelopeSchema = z.object({
	data: z.array(jobSchema),
	cursor_job_id: z.string().optional(),
	metrics: jobsMetricsSchema,
});

/** Job search pages by numeric offset; the next page starts at offset + data.length. */
export const jobSearchEnvelopeSchema = z.object({
	data: z.array(jobSchema),
	metrics: jobsMetricsSchema,
});

export const jobsOfSourceQuerySchema = z.object({
	cursor_job_id: z.string().min(1).optional(),
});

/** A `job_tags` or `industry_tags` value: any text but the empty string (the account's tags are Get Filters' answer, not a fixed list). */
const tagParam = z.string().min(1, 'a tag must not be empty');

export const jobSearchQuerySchema = z.object({
	search: z.string().optional(),
	locations: z.string().optional(),
	// A repeated query parameter (assumed; the spec shows one value): one category name contains commas.
	categories: z.array(z.enum(JOB_CATEGORIES)).default([]),
	job_tags: z.array(tagParam).default([]),
	industry_tags: z.array(tagParam).default([]),
	offset: integerParam('offset', 0).default(0),
});

export const sourceSchema = z.object({
	source_id: z.string().min(1),
	url_source: nakedDomain,
	name: z.string(),
	description: z.string(),
	location: z.string(),
	url_logo: z.url(),
	industry_tags: z.array(z.string()),
	count_jobboard_jobs: z.number().int().nonnegative(),
	count_jobbard_jobs_success_at: timestamp,
	created_at: timestamp,
	updated_at: timestamp,
});

export const filtersSchema = z.object({
	locations: z.array(z.string()),
	job_tags: z.array(z.string()),
	industry_tags: z.array(z.string()),
	categories: z.array(z.enum(JOB_CATEGORIES)),
});

export const collectionSchema = z.object({
	collection_id: z.string().min(1),
	name: z.string(),
	description: z.string(),
	count_sources: z.number().int().nonnegative(),
	created_at: timestamp,
});

export const collectionsEnvelopeSchema = z.object({
	data: z.array(collectionSchema),
});

export const sourcesEnvelopeSchema = z.object({
	data: z.array(sourceSchema),
	cursor_source_id: z.string().optional(),
	metrics: z.object({ count_sources: z.number().int().nonnegative() }),
});

export const sourcesOfCollectionQuerySchema = z.object({
	cursor_source_id: z.string().min(1).optional(),
});

// ---- Subscriber upload ----------------------------------------------------

export const subscriberUploadBodySchema = z.object({
	email_addresses: z.string(),
	access_token: z.string().min(1),
});

/** Success is an empty JSON object (spec), also when some addresses were refused. */
export const subscriberUploadOkSchema = z.strictObject({});

export const subscriberUploadErrorSchema = z.object({
	responseText: z.string().regex(/^Error '.*'$/s),
});

// ---- Webhooks -------------------------------------------------------------


export const webhookEventSchema = z.object({
	webhook_event_id: z.string().min(1),
	webhook_id: z.string().min(1),
	organization_id: z.string().min(1),
	event_type: z.enum(WEBHOOK_EVENT_TYPES),
	// The job for job events; for `signal`, the signal object (assumed: the spec does not show the payload).
	event_data: z.union([jobSchema, signalSchema]),
	created_at: timestamp,
	updated_at: timestamp,
});

export const webhookSettingInputSchema = z.object({
	url: z.url({ protocol: /^https?$/ }).max(LIMITS.maxWebhookUrlLength),
	event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1),
	secret_key: z.string().max(LIMITS.maxWebhookSecretKeyLength).optional(),
});

export const webhookSettingSchema = webhookSettingInputSchema.extend({
	webhook_id: z.string().min(1),
	created_at: timestamp,
});

export const webhookSettingsEnvelopeSchema = z.object({ data: z.array(webhookSettingSchema) });

// ---- Errors ---------------------------------------------------------------

/** Error body of every /v2 call (the spec shows none; this is the mock's choice). */
export const apiErrorSchema = z.object({
	status: z.number().int(),
	error: z.string(),
	message: z.string(),
});

// ---- By name, as the endpoint table (endpoints.ts) names them ------------------

/** The schema each answer rule (answers.ts) restates: the mock's OpenAPI document and the answer tests read it. */
export const ANSWER_SCHEMAS = {
	signalsPage: signalsEnvelopeSchema,
	jobSearchPage: jobSearchEnvelopeSchema,
	jobsPage: jobsEnvelopeSchema,
	sourcesPage: sourcesEnvelopeSchema,
	collections: collectionsEnvelopeSchema,
	job: jobSchema,
	source: sourceSchema,
	filters: filtersSchema,
	upload: subscriberUploadOkSchema,
	webhookSettings: webhookSettingsEnvelopeSchema,
	webhookSetting: webhookSettingSchema,
	webhookEvent: webhookEventSchema,
} satisfies Record<AnswerName, z.ZodType>;

export const QUERY_SCHEMAS = {
	signals: signalsQuerySchema,
	jobsOfSource: jobsOfSourceQuerySchema,
	jobSearch: jobSearchQuerySchema,
	sourcesOfCollection: sourcesOfCollectionQuerySchema,
} satisfies Record<QueryName, z.ZodObject>;

export const BODY_SCHEMAS = {
	subscriberUpload: subscriberUploadBodySchema,
	webhookSettingInput: webhookSettingInputSchema,
} satisfies Record<BodyName, z.ZodType>;

// The types of these schemas, spelled out in records.ts (generated from this file) so the nodes compile without zod.
export type {
	Signal,
	Pagination,
	SignalsEnvelope,
	Job,
	JobsEnvelope,
	JobSearchEnvelope,
	Source,
	Filters,
	Collection,
	SourcesEnvelope,
	WebhookEvent,
	WebhookSetting,
	ApiError,
} from './records';
