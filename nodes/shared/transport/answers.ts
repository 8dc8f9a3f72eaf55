/**
 * What each of the service's answers must hold before the node uses it: the one
 * table the node checks answers against. It restates, field for field, the
 * envelopes of the zod contract (contract/schemas.ts), and AnswerTypes gives
 * each the TypeScript type inferred from those schemas. zod itself is not
 * bundled (docs/architecture.md, "Checking answers": its compiled checks use the
 * Function constructor, which n8n's scanner forbids, and a full parse of 20,000
 * signals costs more than the whole Return All). test/node/answers.test.mts
 * holds this table to the zod schemas and to the mock's real answers.
 *
 * Envelopes are checked in full. Records (signals, jobs, sources, …) are checked
 * for their identifier only: they go to the user as the service sent them, and
 * a field the service adds or a new category must not break a workflow.
 */
import type { IDataObject } from 'n8n-workflow';
import type * as Contract from '../contract';

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

export const ANSWERS = {
	/** GET /signals/… (signalsEnvelopeSchema). */
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
	/** GET /jobs (jobSearchEnvelopeSchema). */
	jobSearchPage: { object: { data: { records: 'job_id' }, metrics: jobsMetrics } },
	/** GET /sources/…/jobs (jobsEnvelopeSchema). */
	jobsPage: { object: { data: { records: 'job_id' }, cursor_job_id: { optional: 'string' }, metrics: jobsMetrics } },
	/** GET /collections/{id}/sources (sourcesEnvelopeSchema). */
	sourcesPage: {
		object: { data: { records: 'source_id' }, cursor_source_id: { optional: 'string' }, metrics: { object: { count_sources: 'count' } } },
	},
	/** GET /collections (collectionsEnvelopeSchema). */
	collections: { object: { data: { records: 'collection_id' } } },
	/** GET /jobs/{id} (jobSchema). */
	job: { object: { job_id: 'id' } },
	/** GET /sources/… (sourceSchema). */
	source: { object: { source_id: 'id' } },
	/** GET /jobs/filters (filtersSchema). */
	filters: { object: { locations: { list: 'string' }, job_tags: { list: 'string' }, industry_tags: { list: 'string' }, categories: { list: 'string' } } },
	/** POST {app_url}/api/subscribers/upload: 200 `{}`. */
	upload: { object: {} },
	/** GET {app_url}/api/webhooks (webhookSettingsEnvelopeSchema). */
	webhookSettings: { object: { data: { list: webhookSetting } } },
	/** POST {app_url}/api/webhooks (webhookSettingSchema). */
	webhookSetting,
} satisfies Record<string, Rule>;

export type AnswerName = keyof typeof ANSWERS;

/** A record as its rule checks it: the identifier is sure; the other fields are the service's, passed on as it sent them. */
export type Checked<T, Id extends keyof T> = IDataObject & Pick<T, Id>;

/** A webhook setting as its rule checks it: the event types as strings (a type the node does not know yet is passed on). */
type CheckedSetting = Checked<Contract.WebhookSetting, 'webhook_id' | 'url'> & { event_types: string[] };

/** What each answer is once its rule passed: the contract's types (z.infer), with records as Checked. */
export interface AnswerTypes {
	signalsPage: Omit<Contract.SignalsEnvelope, 'signals'> & { signals: Array<Checked<Contract.Signal, 'signal_id'>> };
	jobSearchPage: Omit<Contract.JobSearchEnvelope, 'data'> & { data: Array<Checked<Contract.Job, 'job_id'>> };
	jobsPage: Omit<Contract.JobsEnvelope, 'data'> & { data: Array<Checked<Contract.Job, 'job_id'>> };
	sourcesPage: Omit<Contract.SourcesEnvelope, 'data'> & { data: Array<Checked<Contract.Source, 'source_id'>> };
	collections: { data: Array<Checked<Contract.Collection, 'collection_id'>> };
	job: Checked<Contract.Job, 'job_id'>;
	source: Checked<Contract.Source, 'source_id'>;
	/** Lists of strings: a job category the service adds later is a string the node passes on. */
	filters: Record<keyof Contract.Filters, string[]>;
	upload: IDataObject;
	webhookSettings: { data: CheckedSetting[] };
	webhookSetting: CheckedSetting;
	/** A request whose answer's body is not used (a 204, a delete). */
	none: IDataObject;
}

/** The answer of a request (indexing AnswerTypes makes a rule without a type an error). */
export type AnswerOf<N extends AnswerName | 'none'> = AnswerTypes[N];
