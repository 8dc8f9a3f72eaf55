/**
 * What the OpenAPI document needs beyond the paths (api.ts) and the bodies
 * (schemas.ts): per path and method, a summary, the tag, the query and body
 * schemas and the success answer. `satisfies Record<ApiPathName | AppPathName>`
 * makes a new path without an entry here a type error.
 */
import type { z } from 'zod/v4';
import { LIMITS, type ApiPathName, type AppPathName } from '../../../contract/api';
import {
	collectionsEnvelopeSchema,
	filtersSchema,
	jobSchema,
	jobSearchEnvelopeSchema,
	jobSearchQuerySchema,
	jobsEnvelopeSchema,
	jobsOfSourceQuerySchema,
	signalsEnvelopeSchema,
	signalsQuerySchema,
	sourceSchema,
	sourcesEnvelopeSchema,
	sourcesOfCollectionQuerySchema,
	subscriberUploadBodySchema,
	subscriberUploadErrorSchema,
	subscriberUploadOkSchema,
	webhookEventSchema,
	webhookSettingInputSchema,
	webhookSettingSchema,
	webhookSettingsEnvelopeSchema,
} from '../../../contract/schemas';

/** The service's parts as the spec divides them; `deprecated` is the spec's mark ("jobs and sources API (v2, deprecated)"). */
export const OPERATION_TAGS = {
	signals: { description: 'Intent signals (an add-on for enterprise accounts)', deprecated: false },
	'jobs-and-sources': { description: 'Jobs, sources and collections: the v2 jobs and sources API, deprecated in the spec (successor not shown)', deprecated: true },
	subscribers: { description: 'Subscriber upload: authenticated by `access_token` in the body, not by the header', deprecated: false },
	webhooks: { description: "Webhook settings (the web application's settings page; this API is assumed)", deprecated: false },
} as const;

export type OperationTag = keyof typeof OPERATION_TAGS;
export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export interface OperationInfo {
	operationId: string;
	summary: string;
	tag: OperationTag;
	query?: z.ZodObject;
	/** The JSON request body. */
	body?: z.ZodType;
	/** The success answer's status and body (no body for 204). */
	ok: { status: 200; body: z.ZodType } | { status: 201; body: z.ZodType } | { status: 204 };
	/** Authenticated by `access_token` in the body (subscriber upload), not by the bearer header. */
	tokenInBody?: true;
	/** The 400 body when it is not the API error body. */
	badRequest?: z.ZodType;
	/** Answers beyond the shared ones (auth, 404 on a path parameter, 413, 414, 429, 500), with when. */
	more?: Record<number, string>;
}

type Operations = Partial<Record<HttpMethod, OperationInfo>>;

const signals = (operationId: string, summary: string): OperationInfo => ({
	operationId, summary, tag: 'signals', query: signalsQuerySchema, ok: { status: 200, body: signalsEnvelopeSchema },
});

export const API_OPERATIONS = {
	signalsOfGroup: { get: signals('getSignalsOfGroup', 'Signals of a group, newest first (page/per_page pages)') },
	signalsOfCategory: { get: signals('getSignalsOfCategory', 'Signals of a category, newest first (page/per_page pages)') },
	signalsOfType: { get: signals('getSignalsOfType', 'Signals of a type, newest first (page/per_page pages)') },
	jobsOfSourceByDomain: {
		get: { operationId: 'getJobsOfSourceByDomain', summary: 'Jobs of a tracked source by its domain, newest first (cursor pages)', tag: 'jobs-and-sources', query: jobsOfSourceQuerySchema, ok: { status: 200, body: jobsEnvelopeSchema } },
	},
	jobsOfSourceById: {
		get: { operationId: 'getJobsOfSourceById', summary: 'Jobs of a tracked source by its id, newest first (cursor pages)', tag: 'jobs-and-sources', query: jobsOfSourceQuerySchema, ok: { status: 200, body: jobsEnvelopeSchema } },
	},
	sourceByDomain: { get: { operationId: 'getSourceByDomain', summary: 'One tracked source by its domain', tag: 'jobs-and-sources', ok: { status: 200, body: sourceSchema } } },
	sourceById: { get: { operationId: 'getSourceById', summary: 'One tracked source by its id', tag: 'jobs-and-sources', ok: { status: 200, body: sourceSchema } } },
	jobFilters: { get: { operationId: 'getJobFilters', summary: "The job search's filter options, personalized to the account", tag: 'jobs-and-sources', ok: { status: 200, body: filtersSchema } } },
	jobSearch: {
		get: { operationId: 'searchJobs', summary: "Search the account's jobs, newest first (offset pages)", tag: 'jobs-and-sources', query: jobSearchQuerySchema, ok: { status: 200, body: jobSearchEnvelopeSchema } },
	},
	jobById: { get: { operationId: 'getJobById', summary: 'One job of a tracked source', tag: 'jobs-and-sources', ok: { status: 200, body: jobSchema } } },
	collections: { get: { operationId: 'getCollections', summary: "The account's activated collections", tag: 'jobs-and-sources', ok: { status: 200, body: collectionsEnvelopeSchema } } },
	sourcesOfCollection: {
		get: { operationId: 'getSourcesOfCollection', summary: 'The sources of one collection (cursor pages)', tag: 'jobs-and-sources', query: sourcesOfCollectionQuerySchema, ok: { status: 200, body: sourcesEnvelopeSchema } },
	},
} as const satisfies Record<ApiPathName, Operations>;

export const APP_OPERATIONS = {
	subscriberUpload: {
		post: {
			operationId: 'uploadSubscribers', summary: 'Subscribe up to 100 comma-separated e-mail addresses to all the account’s job tags', tag: 'subscribers',
			tokenInBody: true, body: subscriberUploadBodySchema, ok: { status: 200, body: subscriberUploadOkSchema }, badRequest: subscriberUploadErrorSchema,
		},
	},
	webhooks: {
		get: { operationId: 'getWebhooks', summary: "The account's webhook settings", tag: 'webhooks', ok: { status: 200, body: webhookSettingsEnvelopeSchema } },
		post: {
			operationId: 'createWebhook', summary: 'Add a webhook setting', tag: 'webhooks', body: webhookSettingInputSchema, ok: { status: 201, body: webhookSettingSchema },
			more: { 409: `The account already has ${LIMITS.maxWebhooksPerAccount} webhook settings: delete one first` },
		},
	},
	webhookById: { delete: { operationId: 'deleteWebhook', summary: 'Remove a webhook setting', tag: 'webhooks', ok: { status: 204 } } },
} as const satisfies Record<AppPathName, Operations>;

/** What each path parameter is; the document names it in the parameter and in the 404. */
export const PATH_PARAMETERS: Record<string, string> = {
	group: 'Signal group id (`problems`, `changes`; the service may add more)',
	category: "Signal category id within the group, e.g. `it`",
	type: "Signal type id within the category, e.g. `outdated-legacy-systems`",
	url_source: 'The source\'s naked domain, e.g. `example.com` (no `www.`)',
	source_id: 'The source id',
	job_id: 'The job id',
	collection_id: 'The collection id',
	webhook_id: 'The webhook setting id',
};

/** The deliveries the service sends to a webhook URL (OpenAPI 3.1 `webhooks`). */
export const WEBHOOK_DELIVERY = {
	operationId: 'receiveEvent',
	summary: 'One event, POSTed to each webhook URL whose setting lists its event type',
	body: webhookEventSchema,
	description: `Answer 200 within ${LIMITS.webhookTimeoutMs / 1000} seconds; a slower answer or another status is retried up to ${LIMITS.webhookMaxRetries} times with exponential backoff. Order is not guaranteed.`,
} as const;
