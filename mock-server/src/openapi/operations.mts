/**
 * What the OpenAPI document needs beyond the endpoint table (contract/endpoints.ts,
 * whose rows give each operation's method, path, summary, tag, query, body and
 * answer) and the bodies (contract/schemas.ts): the tags' descriptions, the path
 * parameters' descriptions, the 400 bodies that are not the API error body, and
 * the webhook deliveries the service sends.
 */
import { z } from 'zod/v4';
import { type EndpointName, LIMITS, type OperationTag, sourceSchema, subscriberUploadErrorSchema, webhookEventSchema } from '../base/contract.mts';

/** The service's parts as the spec divides them; `deprecated` is the spec's mark ("jobs and sources API (v2, deprecated)"). */
export const OPERATION_TAGS = {
	signals: { description: 'Intent signals (an add-on for enterprise accounts)', deprecated: false },
	'jobs-and-sources': { description: 'Jobs, sources and collections: the v2 jobs and sources API, deprecated in the spec (successor not shown)', deprecated: true },
	subscribers: { description: 'Subscriber upload: authenticated by `access_token` in the body, not by the header', deprecated: false },
	webhooks: { description: "Webhook settings (the web application's settings page; this API is assumed)", deprecated: false },
} as const satisfies Record<OperationTag, { description: string; deprecated: boolean }>;

/** The 400 body of the endpoints whose refusal is not the API error body. */
export const BAD_REQUEST_BODIES: Partial<Record<EndpointName, z.ZodType>> = { subscriberUpload: subscriberUploadErrorSchema };

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

/**
 * A path parameter's value beyond "a non-empty string". A domain always has a dot, so the `id` of
 * `/sources/id/{source_id}` is never a `{url_source}`: `/sources/id/jobs` is the source with id `jobs`
 * (the mock routes it so). Redocly's no-ambiguous-paths reads templates only, not patterns (redocly.yaml).
 */
const { $schema: _, ...domain } = z.toJSONSchema(sourceSchema.shape.url_source, { target: 'draft-2020-12' });
export const PATH_PARAMETER_SCHEMAS: Record<string, Record<string, unknown>> = { url_source: domain };

/** The deliveries the service sends to a webhook URL (OpenAPI 3.1 `webhooks`). */
export const WEBHOOK_DELIVERY = {
	operationId: 'receiveEvent',
	summary: 'One event, POSTed to each webhook URL whose setting lists its event type',
	body: webhookEventSchema,
	description: `Answer 200 within ${LIMITS.webhookTimeoutMs / 1000} seconds; a slower answer or another status is retried up to ${LIMITS.webhookMaxRetries} times with exponential backoff. Order is not guaranteed. The request carries no credentials and no signature: the spec's secret key is a placeholder, and verification of webhook requests is not offered.`,
} as const;
