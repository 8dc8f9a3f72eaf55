/**
 * What each of the service's answers must hold before a node uses it, as plain
 * data the nodes compile (zod is not shipped: docs/architecture.md, "Checking
 * answers"). Each rule restates, field for field, an envelope of the zod
 * contract (schemas.ts: ANSWER_SCHEMAS), and test/node/answers.test.mts holds
 * the two together. Envelopes are checked in full; records (signals, jobs,
 * sources, …) for their identifier only: they go to the user as the service
 * sent them, and a field the service adds must not break a workflow.
 */
import { WEBHOOK_EVENT_TYPES, type EventRecord } from './events';

export type Rule =
	| 'string'
	/** A non-empty string (identifiers). */
	| 'id'
	| 'boolean'
	/** A whole number ≥ 0 (counts, indexes, timestamps). */
	| 'count'
	/** A whole number ≥ 1 (page numbers, page sizes). */
	| 'positive'
	/** A number ≥ 0 (Unix times a sender writes, which may carry a fraction). */
	| 'timestamp'
	/** A string of 1 to 200 characters without control characters (the ids a webhook sender gives: kept as newline-separated text). */
	| 'deliveryId'
	/** One of these strings. */
	| { oneOf: readonly string[] }
	| { optional: Rule }
	| { list: Rule }
	/** A list of objects, each with this field as an 'id'. */
	| { records: string }
	/** An object with at least these fields (others are allowed). */
	| { object: Record<string, Rule> };

const jobsMetrics: Rule = { object: { count_jobs: 'count', updated_at: 'count' } };
const webhookSetting: Rule = { object: { webhook_id: 'id', url: 'string', event_types: { list: 'string' } } };

/** The rule of each answer, by name; an endpoint (endpoints.ts) names the one its 2xx answer is held to. */
export const ANSWERS = {
	signalsPage: {
		object: {
			group: 'string',
			category: { optional: 'string' },
			type: { optional: 'string' },
			pagination: {
				object: {
					page: 'positive',
					per_page: 'positive',
					count_pages: 'count',
					count_signals: 'count',
					start_index: 'count',
					end_index: 'count',
					has_next: 'boolean',
					has_prev: 'boolean',
				},
			},
			signals: { records: 'signal_id' },
		},
	},
	jobSearchPage: { object: { data: { records: 'job_id' }, metrics: jobsMetrics } },
	jobsPage: { object: { data: { records: 'job_id' }, cursor_job_id: { optional: 'string' }, metrics: jobsMetrics } },
	sourcesPage: {
		object: { data: { records: 'source_id' }, cursor_source_id: { optional: 'string' }, metrics: { object: { count_sources: 'count' } } },
	},
	collections: { object: { data: { records: 'collection_id' } } },
	job: { object: { job_id: 'id' } },
	source: { object: { source_id: 'id' } },
	filters: { object: { locations: { list: 'string' }, job_tags: { list: 'string' }, industry_tags: { list: 'string' }, categories: { list: 'string' } } },
	/** The spec's upload answer: `{}`. */
	upload: { object: {} },
	webhookSettings: { object: { data: { list: webhookSetting } } },
	webhookSetting,
	/**
	 * A webhook delivery's body, as the trigger receives it from any sender: the ids as text it can keep, the event's
	 * record passed on as the sender wrote it (webhookEventRecord adds what each record must name).
	 */
	webhookEvent: {
		object: {
			webhook_event_id: 'deliveryId',
			webhook_id: 'deliveryId',
			organization_id: 'deliveryId',
			event_type: { oneOf: WEBHOOK_EVENT_TYPES },
			event_data: { object: {} },
			created_at: 'timestamp',
			updated_at: 'timestamp',
		},
	},
} as const satisfies Record<string, Rule>;

export type AnswerName = keyof typeof ANSWERS;

/** What a webhook event's record must name, by the record it carries: the trigger's dedupe and output read it. */
export const EVENT_RECORD_RULES = {
	job: { object: { event_data: { object: { job_id: 'id' } } } },
	signal: { object: { event_data: { object: {} } } },
} as const satisfies Record<EventRecord, Rule>;
