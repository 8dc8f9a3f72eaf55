/**
 * The service's endpoints, one row each: where it is, whether a retry is safe,
 * the rule its answer is held to (answers.ts), what the user is told when it
 * answers 404, and how the OpenAPI document presents it. The nodes' transport
 * sends every call by its row's name, the mock routes every handler by it, and
 * the mock's OpenAPI document is written from it. Plain data only: the n8n nodes compile this file.
 *
 * Each row's `origin` says what the service description shows and what the
 * project assumed; `npm run generate` writes the table of docs/api-assumptions.md
 * from the rows.
 */
import type { AnswerName } from './answers';
import { LIMITS } from './api';

/** The zod schemas an endpoint's OpenAPI entry names (schemas.ts: QUERY_SCHEMAS, BODY_SCHEMAS). */
export type QueryName = 'signals' | 'jobsOfSource' | 'jobSearch' | 'sourcesOfCollection';
export type BodyName = 'subscriberUpload' | 'webhookSettingInput';
export type OperationTag = 'signals' | 'jobs-and-sources' | 'subscribers' | 'webhooks';

export interface Endpoint {
	method: 'GET' | 'POST' | 'DELETE';
	/** `api`: under the credential's base URL (which ends in `/v2`); `app`: under its app URL. */
	on: 'api' | 'app';
	/** `:name` marks a path parameter. */
	path: string;
	/** The rule a 2xx answer is held to; `none`: the body is not used (204). */
	answer: AnswerName | 'none';
	/** Whether a retry after a 5xx or a lost connection is safe. */
	idempotent: boolean;
	/** Where the row comes from: `spec` (the service description shows it), `assumed` (the project's choice), or which part is which. */
	origin: string;
	/** 4xx statuses that are an answer, not a failure (404 on a delete: already gone). */
	acceptStatuses?: readonly number[];
	/**
	 * What a 404 tells the user: what happened (absent: the service's own words) and what to do next.
	 * `{name}` is filled with the path parameter of that name (several values tried: joined with "or").
	 */
	notFound?: { message?: string; description: string };
	/** The OpenAPI operation. */
	doc: {
		operationId: string;
		summary: string;
		tag: OperationTag;
		query?: QueryName;
		body?: BodyName;
		/** The success status (204: no body). */
		status: 200 | 201 | 204;
		/** Authenticated by `access_token` in the body (subscriber upload), not by the bearer header. */
		tokenInBody?: true;
		/** Answers beyond the shared ones (auth, 404 on a path parameter, 413, 414, 429, 500), with when. */
		more?: Readonly<Record<number, string>>;
	};
}

const SIGNALS_NOT_FOUND = {
	description:
		'The service does not know this group, category or type. Pick one from the lists, or check the ID or name given by expression (ids such as "it" or "cash-flow-constraints", or names such as "IT" or "Cash Flow Constraints").',
};
const BY_DOMAIN_NOT_FOUND = {
	message: 'The service tracks no company with the domain {url_source}',
	description:
		"Give the company's main website domain (its url_source, as Source → Get Many in Collection lists it), or add the company to one of your collections in the service's web application and run again. With a source ID, switch Source to By ID.",
};
const BY_ID_NOT_FOUND = {
	message: 'The service tracks no company with the source ID {source_id}',
	description:
		"Source IDs are the source_id of Source → Get Many in Collection or of a signal; check the ID, or switch Source to Domain and give the company's domain.",
};

const signals = <P extends string>(path: P, operationId: string, of: string, origin = 'spec') =>
	({
		method: 'GET',
		on: 'api',
		path,
		answer: 'signalsPage',
		idempotent: true,
		origin,
		notFound: SIGNALS_NOT_FOUND,
		doc: { operationId, summary: `Signals of a ${of}, newest first (page/per_page pages)`, tag: 'signals', query: 'signals', status: 200 },
	}) as const satisfies Endpoint;

export const ENDPOINTS = {
	signalsOfGroup: signals('/signals/:group', 'getSignalsOfGroup', 'group'),
	signalsOfCategory: signals('/signals/:group/:category', 'getSignalsOfCategory', 'category'),
	signalsOfType: signals('/signals/:group/:category/:type', 'getSignalsOfType', 'type', 'spec for `problems`; assumed the same for `changes`'),
	jobsOfSourceByDomain: {
		method: 'GET', on: 'api', path: '/sources/:url_source/jobs', answer: 'jobsPage', idempotent: true, origin: 'spec (path); the cursor parameter `cursor_job_id` assumed', notFound: BY_DOMAIN_NOT_FOUND,
		doc: { operationId: 'getJobsOfSourceByDomain', summary: 'Jobs of a tracked source by its domain, newest first (cursor pages)', tag: 'jobs-and-sources', query: 'jobsOfSource', status: 200 },
	},
	jobsOfSourceById: {
		method: 'GET', on: 'api', path: '/sources/id/:source_id/jobs', answer: 'jobsPage', idempotent: true, origin: 'assumed', notFound: BY_ID_NOT_FOUND,
		doc: { operationId: 'getJobsOfSourceById', summary: 'Jobs of a tracked source by its id, newest first (cursor pages)', tag: 'jobs-and-sources', query: 'jobsOfSource', status: 200 },
	},
	sourceByDomain: {
		method: 'GET', on: 'api', path: '/sources/:url_source', answer: 'source', idempotent: true, origin: 'assumed', notFound: BY_DOMAIN_NOT_FOUND,
		doc: { operationId: 'getSourceByDomain', summary: 'One tracked source by its domain', tag: 'jobs-and-sources', status: 200 },
	},
	sourceById: {
		method: 'GET', on: 'api', path: '/sources/id/:source_id', answer: 'source', idempotent: true, origin: 'assumed', notFound: BY_ID_NOT_FOUND,
		doc: { operationId: 'getSourceById', summary: 'One tracked source by its id', tag: 'jobs-and-sources', status: 200 },
	},
	jobFilters: {
		method: 'GET', on: 'api', path: '/jobs/filters', answer: 'filters', idempotent: true, origin: 'assumed',
		doc: { operationId: 'getJobFilters', summary: "The job search's filter options, personalized to the account", tag: 'jobs-and-sources', status: 200 },
	},
	jobSearch: {
		method: 'GET', on: 'api', path: '/jobs', answer: 'jobSearchPage', idempotent: true, origin: 'assumed (the parameters `search`, `locations` and `offset` are the spec\'s)',
		doc: { operationId: 'searchJobs', summary: "Search the account's jobs, newest first (offset pages)", tag: 'jobs-and-sources', query: 'jobSearch', status: 200 },
	},
	jobById: {
		method: 'GET', on: 'api', path: '/jobs/:job_id', answer: 'job', idempotent: true, origin: 'assumed',
		notFound: {
			description:
				'Check the Job ID ("{job_id}"). The job may also have been deleted: the API no longer returns deleted jobs. Job → Search or Job → Get Many for Source list the current job IDs.',
		},
		doc: { operationId: 'getJobById', summary: 'One job of a tracked source', tag: 'jobs-and-sources', status: 200 },
	},
	collections: {
		method: 'GET', on: 'api', path: '/collections', answer: 'collections', idempotent: true, origin: 'assumed',
		doc: { operationId: 'getCollections', summary: "The account's activated collections", tag: 'jobs-and-sources', status: 200 },
	},
	sourcesOfCollection: {
		method: 'GET', on: 'api', path: '/collections/:collection_id/sources', answer: 'sourcesPage', idempotent: true, origin: 'assumed (the cursor parameter `cursor_source_id` too)',
		doc: { operationId: 'getSourcesOfCollection', summary: 'The sources of one collection (cursor pages)', tag: 'jobs-and-sources', query: 'sourcesOfCollection', status: 200 },
	},
	subscriberUpload: {
		// The service never subscribes an address twice, so a retried call cannot duplicate anything.
		method: 'POST', on: 'app', path: '/api/subscribers/upload', answer: 'upload', idempotent: true, origin: 'spec',
		doc: {
			operationId: 'uploadSubscribers', summary: 'Subscribe up to 100 comma-separated e-mail addresses to all the account’s job tags', tag: 'subscribers',
			body: 'subscriberUpload', status: 200, tokenInBody: true,
		},
	},
	listWebhooks: {
		method: 'GET', on: 'app', path: '/api/webhooks', answer: 'webhookSettings', idempotent: true, origin: 'assumed (the spec configures webhooks in the web application only)',
		doc: { operationId: 'getWebhooks', summary: "The account's webhook settings", tag: 'webhooks', status: 200 },
	},
	createWebhook: {
		// A repeated create could leave two entries, so it is never retried.
		method: 'POST', on: 'app', path: '/api/webhooks', answer: 'webhookSetting', idempotent: false, origin: 'assumed',
		doc: {
			operationId: 'createWebhook', summary: 'Add a webhook setting', tag: 'webhooks', body: 'webhookSettingInput', status: 201,
			more: { 409: `The account already has ${LIMITS.maxWebhooksPerAccount} webhook settings: delete one first` },
		},
	},
	deleteWebhook: {
		method: 'DELETE', on: 'app', path: '/api/webhooks/:webhook_id', answer: 'none', idempotent: true, acceptStatuses: [404], origin: 'assumed',
		doc: { operationId: 'deleteWebhook', summary: 'Remove a webhook setting', tag: 'webhooks', status: 204 },
	},
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;
/** The rule an endpoint's answer is held to. */
export type AnswerOfEndpoint<E extends EndpointName> = (typeof ENDPOINTS)[E]['answer'];
/** The path parameters an endpoint's path names (`:name`). */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
	? Name | PathParams<`/${Rest}`>
	: P extends `${string}:${infer Name}`
		? Name
		: never;
export type ParamsOf<E extends EndpointName> = Record<PathParams<(typeof ENDPOINTS)[E]['path']>, string>;

/** Fills `:name` placeholders, URL-encoding each value. Throws on a missing value. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
	return path.replace(/:([a-z_]+)/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
		return encodeURIComponent(value);
	});
}
