/**
 * The control routes' answers (handlers/control.mts) as zod schemas, for their OpenAPI document only:
 * the routes build these bodies from the mock's own types, and mock-server/test/openapi-control.test.mts
 * validates every route's real answer against the document, so a field added to an answer and not here fails it.
 */
import { z } from 'zod/v4';
import { jobSchema, signalSchema, WEBHOOK_EVENT_TYPES } from '../base/contract.mts';

const epochMs = z.number().int().nonnegative();

export const resetAnswerSchema = z.object({ reset: z.literal(true) });

export const cycleEventsSchema = z.object({
	events: z.array(
		z.object({
			account_id: z.string(),
			event_type: z.enum(WEBHOOK_EVENT_TYPES),
			event_data: z.union([jobSchema, signalSchema]).describe('The job (with `deleted_at` for job_deleted) or the signal'),
		}),
	),
});

export const journalAnswerSchema = z.object({
	data: z.array(
		z.object({
			method: z.string(),
			path: z.string(),
			query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).describe('Each parameter by name; an array when repeated'),
			account_id: z.string().nullable().describe("The account the call's credentials resolved to"),
			status: z.number().int().describe('The status answered; 0 for an injected dropped connection'),
			time: z.string(),
			time_ms: epochMs,
			warnings: z.array(z.string()).describe('What the X-Mock-Warning header said (an unknown query parameter, an unescaped "+" in search)'),
			headers: z.record(z.string(), z.string()).describe("The request headers by lower-cased name; Authorization's credentials redacted"),
			body: z.string().nullable().describe("The request body's start as text (access_token redacted); null: no body"),
			body_truncated: z.boolean(),
			stub_id: z.string().nullable().describe('The WireMock stub that answered; null: the service did'),
		}),
	),
	dropped: z.number().int().nonnegative().describe('Calls the cap dropped since the last reset'),
});

export const deliveryLogSchema = z.object({
	data: z.array(
		z.object({
			webhook_event_id: z.string().nullable().describe('null on a `not_sent` entry'),
			webhook_id: z.string(),
			account_id: z.string(),
			event_type: z.enum(WEBHOOK_EVENT_TYPES),
			url: z.string(),
			attempt: z.number().int().nonnegative().describe('1 for the first attempt, 2–4 for the retries, 0 when not sent'),
			started_at: epochMs,
			duration_ms: z.number().nonnegative(),
			status: z.number().int().nullable().describe('null when no answer came'),
			error: z.string().nullable(),
			outcome: z.enum(['delivered', 'retry_scheduled', 'failed', 'not_sent']),
			retry_in_ms: z.number().nonnegative().optional().describe('Only on `retry_scheduled`'),
			count: z.number().int().positive().optional().describe('Only on `not_sent`: how many deliveries the entry stands for'),
			origin: z.enum(['cycle', 'redelivery', 'copy', 'reordered']).describe("A cycle's or chosen event's delivery, or a receiver knob's"),
			injected: z.literal(true).optional().describe('Only on an attempt a failure rule failed'),
		}),
	),
});

export const accountsAnswerSchema = z.object({
	data: z.array(
		z.object({
			account_id: z.string(),
			organization_id: z.string(),
			name: z.string(),
			token: z.string(),
			job_tags: z.array(z.string()),
			job_board: z.boolean(),
			filters: z.object({ regions: z.array(z.string()) }),
			/** The account's rate-limit budget now; null when the limit is off (--rate-limit 0). */
			rate_limit: z.object({ limit: z.number().int(), remaining: z.number().int(), resets_in_ms: z.number().nullable() }).nullable(),
		}),
	),
});

export const subscribersAnswerSchema = z.object({
	data: z.array(z.object({ account_id: z.string(), email: z.string(), tags: z.array(z.string()), created_at: z.number().int() })),
});

export const stateAnswerSchema = z.object({
	state_dir: z.string().nullable(),
	persisting: z.boolean(),
	error: z.string().nullable(),
});

/** The receiver knobs' answer (POST /__mock/deliveries/redeliver, /copies, /reorder), in sending order. */
export const queuedAnswerSchema = z.object({
	queued: z.array(
		z.object({
			webhook_event_id: z.string(),
			webhook_id: z.string(),
			account_id: z.string(),
			url: z.string(),
			origin: z.enum(['redelivery', 'copy', 'reordered']),
			moved: z.boolean().optional().describe('Only from a reorder: true when the delivery was still waiting and was moved (sent once), false when it goes again'),
		}),
	),
});

export const failuresAnswerSchema = z.object({
	failures: z.array(
		z.object({
			webhook_id: z.string().optional(),
			url: z.string().optional(),
			fail_next: z.number().int().positive(),
			failure: z.enum(['status', 'timeout', 'drop']),
			status: z.number().int().optional().describe('Only with failure "status"'),
			reach_receiver: z.boolean(),
			remaining: z.number().int().positive().describe('The failures still to come'),
		}),
	),
});

export const clockAnswerSchema = z.object({
	now: z.string().describe('The clock’s date, ISO 8601'),
	now_ms: epochMs,
	frozen: z.boolean(),
	offset_ms: z.number().int().describe('How far the clock’s date is from the wall clock’s'),
	timers: z.number().int().nonnegative().describe('Waits pending: queued deliveries, retries, the next timed cycle'),
	next_timer_in_ms: z.number().int().nonnegative().nullable().describe('The time to advance before the next timer goes; null when none waits'),
});

/** GET / (the standalone server's front door, page/root.mts) as JSON. */
export const rootAnswerSchema = z.object({
	name: z.literal('job-signals-mock-server'),
	version: z.string(),
	page: z.string().describe('The page that shows the mock at work (GET /__mock/ui)'),
	openapi: z.string().describe("The service's OpenAPI document"),
	control_openapi: z.string().describe("The control API's OpenAPI document (this one)"),
	api: z.string().describe('The API base URL'),
	readme: z.string().nullable().describe("The README on the web, from package.json's repository (set when the package is published); null without one"),
	readme_file: z.string().nullable().describe('The README in the installed package; null if it is not there'),
});

/** A request as WireMock's admin API shows it (wiremock/journal-query.mts, LoggedRequest). */
const loggedRequestSchema = z.object({
	id: z.string().optional().describe('A journaled call’s id (not on a request posted to near-misses/request)'),
	url: z.string().describe('The path and query'),
	absoluteUrl: z.string(),
	method: z.string().describe('As sent (HEAD too)'),
	headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).describe('By lower-cased name; Authorization’s credentials redacted in the journal'),
	cookies: z.object({}),
	browserProxyRequest: z.literal(false),
	loggedDate: epochMs.optional(),
	loggedDateString: z.string().optional(),
	body: z.string(),
	bodyAsBase64: z.string(),
	queryParams: z.record(z.string(), z.object({ key: z.string(), values: z.array(z.string()) })),
});

/** What the journal keeps redacted, and a pattern asked for: only when there is something to say. */
const warningsSchema = z
	.array(z.string())
	.optional()
	.describe('Only when the pattern asks for what the journal keeps redacted (Authorization’s credentials, a body’s access_token): such a pattern matches no call');

export const countAnswerSchema = z.object({ count: z.number().int().nonnegative(), requestJournalDisabled: z.literal(false), warnings: warningsSchema });

export const findAnswerSchema = z.object({ requests: z.array(loggedRequestSchema), requestJournalDisabled: z.literal(false), warnings: warningsSchema });

export const nearMissesAnswerSchema = z.object({
	nearMisses: z.array(
		z.object({
			request: loggedRequestSchema,
			stubMapping: z.record(z.string(), z.unknown()).optional().describe('The stub (near misses of a request)'),
			requestPattern: z.record(z.string(), z.unknown()).optional().describe('The pattern as given (near misses of a request pattern)'),
			matchResult: z.object({ distance: z.number().min(0).max(1).describe('0: a match; 1: nothing matches (README, "Near misses and the 404 diff")') }),
		}),
	),
});

/** A request pattern as a body (WireMock's; README, "WireMock admin API (stubs and verification)"). */
export const requestPatternBodySchema = z.record(z.string(), z.unknown()).describe('A request pattern: method, url / urlPath / urlPathPattern / urlPattern, queryParameters, headers, bodyPatterns');

/** POST /__admin/near-misses/request's body: a logged request (wiremock/near-misses.mts, readLoggedRequest). */
export const loggedRequestBodySchema = z.object({
	method: z.string().regex(/^[A-Z]+$/),
	url: z.string().optional().describe('The path and query (or absoluteUrl)'),
	absoluteUrl: z.string().optional(),
	headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
	body: z.string().optional(),
	bodyAsBase64: z.string().optional(),
});
