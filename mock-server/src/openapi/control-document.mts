/**
 * The OpenAPI 3.1 document of the mock's control API (the /__mock routes of handlers/control.mts), and of the
 * WireMock admin routes it answers beyond stubs: health and version, which containers and wait strategies call, and
 * those whose answers the mock adds to WireMock's (near misses, verification's warnings); generated from their zod
 * schemas. A document of its own (openapi-control.json, GET /__mock/openapi.json), not part
 * of the service's: a client generated from the service's document, or Prism serving it, must have only
 * what the service has, while a test suite can generate a typed client of the control API from this one.
 */
import { z } from 'zod/v4';
import { apiErrorSchema, jobSchema, LIMITS, MOCK_CONTROL_PATHS, signalSchema } from '../base/contract.mts';
import { clockBodySchema, MAX_ADVANCE_MS } from '../clock/clock-body.mts';
import { faultsBodySchema, listedFaultRuleSchema } from '../http/faults.mts';
import { adminErrorSchema } from '../wiremock/admin-error.mts';
import { healthAnswerSchema, versionAnswerSchema } from '../wiremock/health.mts';
import { eventBodySchema, cycleBodySchema } from '../cycles/control-bodies.mts';
import { MAX_COPIES, MAX_LOG_ENTRIES, MAX_REORDERED } from '../webhooks/delivery-engine.mts';
import { failureRuleSchema, MAX_FAILURE_RULES } from '../webhooks/failure-rules.mts';
import { MAX_KEPT_ENVELOPES } from '../webhooks/kept-envelopes.mts';
import { MAX_JOURNAL_READ } from '../http/journal.mts';
import { PAGE_PATH } from '../page/page.mts';
import { ROOT_PATH } from '../page/root.mts';
import { copiesBodySchema, redeliverBodySchema, reorderBodySchema } from '../receiver-knobs/bodies.mts';
import {
	accountsAnswerSchema,
	clockAnswerSchema,
	countAnswerSchema,
	cycleEventsSchema,
	findAnswerSchema,
	loggedRequestBodySchema,
	nearMissesAnswerSchema,
	requestPatternBodySchema,
	deliveryLogSchema,
	failuresAnswerSchema,
	journalAnswerSchema,
	queuedAnswerSchema,
	resetAnswerSchema,
	rootAnswerSchema,
	stateAnswerSchema,
	subscribersAnswerSchema,
} from './control-schemas.mts';
import { DOCUMENT_LICENSE, type OpenApiDocument } from './document.mts';
import { COMPONENT_REF, type JsonSchema } from './json-schema.mts';
import { ADMIN_PREFIX } from '../wiremock/admin-routes.mts';
import { MAX_UNMATCHED_NEAR_MISS_CALLS } from '../wiremock/journal-query.mts';
import { MAX_NEAR_MISSES } from '../wiremock/near-misses.mts';
import { responseRef, sharedResponses } from './responses.mts';
import { CONTROL_HEADER } from '../http/cors.mts';


const TAGS = {
	data: 'The data and its changes: back to the seed, cycles, chosen events, the state folder',
	requests: 'The request journal: what the code under test sent, and what it was answered',
	webhooks: 'The webhook delivery log: every attempt',
	receivers: "Receiver knobs: a kept envelope again, copies of one, a batch in a new order, failures of a receiver's next attempts",
	clock: "The mock's clock, of every date it hands out and every wait it makes: read, freeze, set, advance, back to the wall clock",
	faults: "Fault rules on the service's routes",
	accounts: 'The demo accounts and what subscriber upload did',
	documents: 'This document',
	doors: "The standalone server's own pages (not in-process): the front door and the page that shows the mock at work",
	wiremock:
		"WireMock's admin API (/__admin), where the mock serves what containers and wait strategies call (health, version), adds to WireMock's answers or serves what WireMock documents on its own: near misses, verification's warnings. The rest of it: the README, \"WireMock admin API (stubs and verification)\"",
} as const;

/** The WireMock admin routes documented here (their errors are WireMock's body: wiremock/admin-error.mts; the rest are WireMock's own, as the README lists them). */
const ADMIN_PATHS = {
	health: `${ADMIN_PREFIX}/health`,
	version: `${ADMIN_PREFIX}/version`,
	find: `${ADMIN_PREFIX}/requests/find`,
	count: `${ADMIN_PREFIX}/requests/count`,
	nearMissesRequest: `${ADMIN_PREFIX}/near-misses/request`,
	nearMissesPattern: `${ADMIN_PREFIX}/near-misses/request-pattern`,
	unmatchedNearMisses: `${ADMIN_PREFIX}/requests/unmatched/near-misses`,
} as const;

/** The control routes' paths, and the standalone server's own (answered before the routes: server.mts). */
const PATHS = { ...MOCK_CONTROL_PATHS, root: ROOT_PATH, page: PAGE_PATH } as const;

interface ControlOperation {
	/** A control path's name, or an admin route's. */
	path: keyof typeof PATHS | (typeof ADMIN_PATHS)[keyof typeof ADMIN_PATHS];
	method: 'get' | 'post' | 'put' | 'delete';
	operationId: string;
	summary: string;
	tag: keyof typeof TAGS;
	query?: JsonSchema[];
	body?: { schema: z.ZodType; required: boolean; description: string };
	/** The success: 200 (202 with `queued`) with this body, or 204 with none, or an HTML page. */
	answer: z.ZodType | JsonSchema | 204 | 'html';
	/** The success is also HTML, to a client that prefers it (Accept), with this description. */
	html?: string;
	/** The answer is 202: deliveries were queued, not made. */
	queued?: true;
	/** 4xx answers besides 403, 405 and 414, with when. */
	refusals?: Record<number, string>;
}

const HTML = { 'text/html': { schema: { type: 'string' } } };
const faultsAnswerSchema = z.object({ faults: z.array(listedFaultRuleSchema) });
const KNOB_404 = `No kept envelope with this \`webhook_event_id\` (the mock keeps the last ${MAX_KEPT_ENVELOPES} it made, in memory; a reset forgets them)`;
const QUEUE_409 = 'The deliveries would pass a delivery queue cap (`--max-queued-deliveries`, or the account’s `--max-queued-deliveries-per-account`): none is queued';
const filter = (name: string, description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string', minLength: 1 } });

/** One row per control route and method; the test checks the rows against the routes the mock registers, both ways. */
const OPERATIONS: ControlOperation[] = [
	{
		path: 'reset', method: 'post', operationId: 'reset', tag: 'data', answer: resetAnswerSchema,
		summary: 'Back to the seed: data, subscribers, rate-limit budgets, faults, webhook settings, deliveries and their log, the journal, the state folder',
	},
	{
		path: 'process', method: 'post', operationId: 'processCycle', tag: 'data', answer: cycleEventsSchema,
		summary: 'Run one cycle; its events are answered and queued for the webhooks',
		body: { schema: cycleBodySchema, required: false, description: `Counts 0–${LIMITS.maxChangesPerCycle}, each left out keeps its default; no body (send ${CONTROL_HEADER}) or {} is the usual cycle` },
		refusals: { 400: 'A body that is not JSON of this shape (the message names the field)', 404: 'No source with this `source_id`' },
	},
	{
		path: 'events', method: 'post', operationId: 'emitEvent', tag: 'data', answer: cycleEventsSchema,
		summary: 'Make one chosen change and its event, delivered like a cycle’s',
		body: { schema: eventBodySchema, required: true, description: 'What is not named is picked at random' },
		refusals: { 400: 'A bad body: an unknown event type, `job_id` with `source_id`, `job_id` on job_created or signal, `signal` on a job event, a type not in the hierarchy', 404: 'No such job (a deleted job is unknown) or source' },
	},
	{
		path: 'requests', method: 'get', operationId: 'getRequests', tag: 'requests', answer: journalAnswerSchema,
		summary: `The request journal, oldest first (the latest ${LIMITS.maxJournalEntries} service calls)`,
		query: [
			filter('path', 'A prefix of the called path as sent, starting with `/`'),
			filter('method', 'GET, POST, PUT, DELETE, or PATCH, HEAD, OPTIONS (which stubs answer); any case'),
			filter('account', 'An account id'),
			filter('since', 'Calls at or after this time: ISO 8601 or epoch milliseconds'),
			{
				name: 'status', in: 'query', required: false, schema: { type: 'string', pattern: '^(?:[1-5]xx|0|[1-5][0-9][0-9])(?:,(?:[1-5]xx|0|[1-5][0-9][0-9]))*$' },
				description: 'Calls answered with this status (0: an injected dropped connection) or in this class (`4xx`, 429 included); several separated by commas, any of them',
			},
			{
				name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_JOURNAL_READ, default: MAX_JOURNAL_READ },
				description: `The newest that many matching calls (still oldest first); read from the newest back, so a small limit costs that many whatever the journal holds. Default and most: ${MAX_JOURNAL_READ}, the journal's cap (all of it)`,
			},
		],
		refusals: { 400: `An unknown or repeated filter, a \`path\` without \`/\`, another method, an unknown account, an unreadable \`since\`, a \`status\` that is none, a \`limit\` outside 1–${MAX_JOURNAL_READ} (the message names it)` },
	},
	{
		path: 'deliveries', method: 'get', operationId: 'getDeliveries', tag: 'webhooks', answer: deliveryLogSchema, summary: 'The webhook delivery log, one entry per attempt, oldest first',
		query: [{
			name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_LOG_ENTRIES, default: MAX_LOG_ENTRIES },
			description: `The newest that many attempts (still oldest first), costing that many. Default and most: ${MAX_LOG_ENTRIES}, the log's cap (all of it)`,
		}],
		refusals: { 400: `A \`limit\` outside 1–${MAX_LOG_ENTRIES}, not a whole number or given twice, or another query parameter (the message names it)` },
	},
	{
		path: 'redeliver', method: 'post', operationId: 'redeliver', tag: 'receivers', answer: queuedAnswerSchema, queued: true,
		summary: 'One more delivery of a kept envelope, byte for byte, to the URL it was made for (origin `redelivery`)',
		body: { schema: redeliverBodySchema, required: true, description: 'The envelope, by the id the delivery log shows' },
		refusals: { 400: 'A body that is not `{"webhook_event_id"}`', 404: KNOB_404, 409: QUEUE_409 },
	},
	{
		path: 'copies', method: 'post', operationId: 'sendCopies', tag: 'receivers', answer: queuedAnswerSchema, queued: true,
		summary: 'More deliveries of a kept envelope (origin `copy`): one per batch spacing, or all started together',
		body: { schema: copiesBodySchema, required: true, description: `1–${MAX_COPIES} copies` },
		refusals: { 400: `A bad body: no \`webhook_event_id\`, \`copies\` outside 1–${MAX_COPIES}`, 404: KNOB_404, 409: QUEUE_409 },
	},
	{
		path: 'reorder', method: 'post', operationId: 'reorder', tag: 'receivers', answer: queuedAnswerSchema, queued: true,
		summary: 'Kept envelopes as one batch in a new order (origin `reordered`): a delivery still waiting is moved, one already sent goes again',
		body: { schema: reorderBodySchema, required: false, description: `No body or {}: the last batch (the latest cycle's or event's envelopes) reversed; else 1–${MAX_REORDERED} ids, each once, in the new order` },
		refusals: { 400: 'A bad body, or an envelope listed twice', 404: 'No batch to reorder (no cycle or event has made a delivery since the last reset), or an id not kept', 409: QUEUE_409 },
	},
	{
		path: 'failures', method: 'get', operationId: 'getDeliveryFailures', tag: 'receivers', answer: failuresAnswerSchema,
		summary: 'The failure rules still waiting, oldest first, with the failures each has to come',
	},
	{
		path: 'failures', method: 'post', operationId: 'failNext', tag: 'receivers', answer: failuresAnswerSchema,
		summary: "A webhook's (or a URL's) next attempts fail; answers the rules waiting. A rule for the same webhook or URL replaces the old one",
		body: { schema: failureRuleSchema, required: true, description: '`webhook_id` or `url` (one of them, exactly as registered); `status` with failure "status" only (default 500)' },
		refusals: {
			400: 'A bad rule: neither or both of `webhook_id` and `url`, `fail_next` outside 1–100, `status` with another failure',
			404: 'No webhook setting has this `webhook_id` or `url`',
			409: `${MAX_FAILURE_RULES} rules are waiting, the most the mock keeps`,
		},
	},
	{ path: 'failures', method: 'delete', operationId: 'clearDeliveryFailures', tag: 'receivers', answer: 204, summary: 'Remove every failure rule' },
	{ path: 'clock', method: 'get', operationId: 'getClock', tag: 'clock', answer: clockAnswerSchema, summary: 'Where the clock stands, whether it is frozen, and the timers waiting on it' },
	{
		path: 'clock', method: 'put', operationId: 'setClock', tag: 'clock', answer: clockAnswerSchema,
		summary: 'Set the date (or keep it), freeze the clock there or let it run, then advance it; answers as GET',
		body: { schema: clockBodySchema, required: true, description: '`{}` freezes the clock where it stands; setting the date is a jump (no timer goes), `advance_ms` is time passing' },
		refusals: { 400: `A bad body: a date that is not one or outside 1970–9999, \`advance_ms\` past ${MAX_ADVANCE_MS} (366 days) or past 9999 (the clock does not move)` },
	},
	{ path: 'clock', method: 'delete', operationId: 'releaseClock', tag: 'clock', answer: 204, summary: 'Back to the wall clock, running (timers keep the time they had left)' },
	{ path: 'faults', method: 'get', operationId: 'getFaults', tag: 'faults', answer: faultsAnswerSchema, summary: 'The current fault rules, each with the injections it has left (`remaining`)' },
	{
		path: 'faults', method: 'put', operationId: 'setFaults', tag: 'faults', answer: faultsAnswerSchema,
		summary: 'Replace the fault rules (answers them as stored, defaults filled, with `remaining`)',
		body: {
			schema: faultsBodySchema,
			required: true,
			description: "The rules; a rule's `path` is a prefix of the service's paths. The most specific matching rule decides: the longest `path`, then one with a `method`, then the first listed",
		},
		refusals: { 400: 'A bad body, or a rule whose path could match only /__mock routes (the rules are kept)' },
	},
	{ path: 'faults', method: 'delete', operationId: 'clearFaults', tag: 'faults', answer: 204, summary: 'Remove every fault rule' },
	{ path: 'accounts', method: 'get', operationId: 'getAccounts', tag: 'accounts', answer: accountsAnswerSchema, summary: 'The demo accounts with their tokens, job board and own filters' },
	{
		path: 'subscribers', method: 'get', operationId: 'getSubscribers', tag: 'accounts', answer: subscribersAnswerSchema,
		summary: "What subscriber uploads did for one account (the service has no read endpoint)",
		refusals: { 404: 'No account with this id' },
	},
	{ path: 'state', method: 'get', operationId: 'getState', tag: 'data', answer: stateAnswerSchema, summary: 'The state folder (`--state-dir`) and whether it still saves' },
	{
		path: ADMIN_PATHS.health, method: 'get', operationId: 'getHealth', tag: 'wiremock', answer: healthAnswerSchema,
		summary: "WireMock's health answer: healthy, the mock's version, whole seconds since it started, the wall clock's time",
	},
	{ path: ADMIN_PATHS.version, method: 'get', operationId: 'getVersion', tag: 'wiremock', answer: versionAnswerSchema, summary: "The mock's version (WireMock's version route)" },
	{ path: 'openapi', method: 'get', operationId: 'getControlDocument', tag: 'documents', answer: { type: 'object', description: 'This document' }, summary: 'The OpenAPI document of the control routes (this one), with its server at the address asked' },
	{
		path: 'root', method: 'get', operationId: 'getRoot', tag: 'doors', answer: rootAnswerSchema,
		html: 'The same links as a page, to a client that prefers text/html to application/json (a browser); JSON to any other (no Accept, */*, application/json)',
		summary: 'Where the page, both OpenAPI documents and the README are, at the address asked (standalone server only)',
	},
	{
		path: 'page', method: 'get', operationId: 'getPage', tag: 'doors', answer: 'html',
		summary: 'The page that shows the mock at work and drives it, in a browser (standalone server only); its view and journal filters are in its query (`?view=requests&status=4xx`)',
	},
	{
		path: ADMIN_PATHS.find, method: 'post', operationId: 'findRequests', tag: 'wiremock', answer: findAnswerSchema,
		summary: "WireMock's: the journal's calls a request pattern matches, oldest first; `warnings` when the pattern asks for what the journal keeps redacted",
		body: { schema: requestPatternBodySchema, required: false, description: 'A request pattern; no body or {} matches every call' },
		refusals: { 400: 'A pattern the mock cannot read or does not serve (the message names the field)' },
	},
	{
		path: ADMIN_PATHS.count, method: 'post', operationId: 'countRequests', tag: 'wiremock', answer: countAnswerSchema,
		summary: "WireMock's: how many of the journal's calls a request pattern matches; `warnings` when the pattern asks for what the journal keeps redacted",
		body: { schema: requestPatternBodySchema, required: false, description: 'A request pattern; no body or {} matches every call' },
		refusals: { 400: 'A pattern the mock cannot read or does not serve (the message names the field)' },
	},
	{
		path: ADMIN_PATHS.nearMissesRequest, method: 'post', operationId: 'nearMissesOfRequest', tag: 'wiremock', answer: nearMissesAnswerSchema,
		summary: `WireMock's: the ${MAX_NEAR_MISSES} stubs nearest to a request, nearest first (also at /__admin/requests/near-misses/request, where wiremock-rest-client posts it)`,
		body: { schema: loggedRequestBodySchema, required: true, description: "A logged request, as GET /__admin/requests shows one (its other fields are taken and not read)" },
		refusals: { 400: 'A logged request the mock cannot read (the message names the field)' },
	},
	{
		path: ADMIN_PATHS.nearMissesPattern, method: 'post', operationId: 'nearMissesOfRequestPattern', tag: 'wiremock', answer: nearMissesAnswerSchema,
		summary: `WireMock's: the ${MAX_NEAR_MISSES} journaled calls nearest to a request pattern, nearest first (also at /__admin/requests/near-misses/request-pattern, where wiremock-rest-client posts it)`,
		body: { schema: requestPatternBodySchema, required: true, description: 'A request pattern' },
		refusals: { 400: 'A pattern the mock cannot read or does not serve (the message names the field)' },
	},
	{
		path: ADMIN_PATHS.unmatchedNearMisses, method: 'get', operationId: 'nearMissesOfUnmatched', tag: 'wiremock', answer: nearMissesAnswerSchema,
		summary: `WireMock's: the ${MAX_NEAR_MISSES} stubs nearest to each of the newest ${MAX_UNMATCHED_NEAR_MISS_CALLS} journaled calls no stub answered, oldest call first`,
	},
];

/** `/__mock/accounts/:account_id/subscribers` → `/__mock/accounts/{account_id}/subscribers`, and its parameter names. */
function openApiPath(path: string): { key: string; params: string[] } {
	return { key: path.replace(/:([a-z_]+)/g, '{$1}'), params: [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]) };
}

/** The named schemas as components (answers as sent, bodies as accepted: defaults optional), and a ref to each. */
function components() {
	const answers = new Map<z.ZodType, string>([[jobSchema, 'Job'], [signalSchema, 'Signal'], [apiErrorSchema, 'ApiError'], [adminErrorSchema, 'WireMockErrors']]);
	const bodies = new Map<z.ZodType, string>();
	const name = (s: string) => s[0].toUpperCase() + s.slice(1);
	for (const op of OPERATIONS) {
		if (op.answer instanceof z.ZodType && !answers.has(op.answer)) answers.set(op.answer, `${name(op.operationId)}Answer`);
		if (op.body) bodies.set(op.body.schema, `${name(op.operationId)}Body`);
	}
	const convert = (named: Map<z.ZodType, string>, io: 'input' | 'output') => {
		const registry = z.registry<{ id: string }>();
		for (const [schema, id] of named) registry.add(schema, { id });
		const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, uri: (id) => `${COMPONENT_REF}${id}` }) as { schemas: Record<string, JsonSchema> };
		return Object.entries(schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema] as const);
	};
	const all = new Map([...answers, ...bodies]);
	return {
		schemas: Object.fromEntries([...convert(answers, 'output'), ...convert(bodies, 'input')].sort(([a], [b]) => a.localeCompare(b))),
		ref: (schema: z.ZodType): JsonSchema => ({ $ref: `${COMPONENT_REF}${all.get(schema)}` }),
	};
}

function build() {
	const { schemas, ref } = components();
	const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
	const error = (description: string) => ({ description, content: json(ref(apiErrorSchema)) });
	const { MethodNotAllowed, PayloadTooLarge, UriTooLong } = sharedResponses(ref(apiErrorSchema));
	const paths: Record<string, Record<string, JsonSchema>> = {};
	for (const op of OPERATIONS) {
		const admin = op.path.startsWith(ADMIN_PREFIX);
		const { key, params } = openApiPath(admin ? op.path : PATHS[op.path as keyof typeof PATHS]);
		const changes = op.method !== 'get';
		const responses: Record<string, JsonSchema> = {
			...(op.answer === 204
				? { 204: { description: 'Done (no body)' } }
				: op.answer === 'html'
					? { 200: { description: 'The page', content: HTML } }
					: { [op.queued ? 202 : 200]: { description: op.html ?? (op.queued ? 'Queued' : 'Done'), content: { ...json(op.answer instanceof z.ZodType ? ref(op.answer) : op.answer), ...(op.html && HTML) } } }),
			// An admin route's own refusals are WireMock's error body (wiremock/admin-error.mts).
			...Object.fromEntries(Object.entries(op.refusals ?? {}).map(([status, why]) => [status, admin ? { description: why, content: json(ref(adminErrorSchema)) } : error(why)])),
			403: (admin ? (why: string) => ({ description: `${why} (WireMock's error body when an admin route refuses it, the mock's when the standalone server does)`, content: json({ anyOf: [ref(adminErrorSchema), ref(apiErrorSchema)] }) }) : error)(
				(changes
					? `${admin ? "A page's call (it carries `Origin`) with n" : 'N'}either \`Content-Type: application/json\` nor an ${CONTROL_HEADER} header (a web page cannot send either cross-site without a preflight); or a`
					: 'A') +
					' `Host` that is not this mock\'s address (standalone server: localhost, IP addresses and `--allowed-hosts`)',
			),
			405: admin
				? {
						description:
							"Another method than the documented ones: WireMock's error body when an admin route answers it (POST, PUT, DELETE), the mock's when the standalone server does (PATCH, TRACE…); `Allow` lists those served",
						headers: { Allow: { description: 'The methods this path serves', required: true, schema: { type: 'string' } } },
						content: json({ anyOf: [ref(adminErrorSchema), ref(apiErrorSchema)] }),
					}
				: responseRef('MethodNotAllowed'),
			...(changes && { 413: responseRef('PayloadTooLarge') }),
			414: responseRef('UriTooLong'),
		};
		const parameters = [
			...params.map((param) => ({ name: param, in: 'path', required: true, description: 'The account id', schema: { type: 'string', minLength: 1 } })),
			...(op.query ?? []),
			...(changes ? [{ name: CONTROL_HEADER, in: 'header', required: false, description: 'Any value: lets a call without a JSON body (`Content-Type: application/json`) change the mock', schema: { type: 'string' } }] : []),
		];
		(paths[key] ??= {})[op.method] = {
			operationId: op.operationId,
			summary: op.summary,
			tags: [op.tag],
			// No authentication: the control routes are the tester's, on a mock that serves local clients only.
			security: [],
			...(parameters.length > 0 && { parameters }),
			...(op.body && { requestBody: { required: op.body.required, description: op.body.description, content: json(ref(op.body.schema)) } }),
			responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
		};
	}
	return {
		paths,
		components: { schemas, responses: { MethodNotAllowed, PayloadTooLarge, UriTooLong } },
	};
}

let built: ReturnType<typeof build> | undefined;

/** The control API's document, with its server at `appUrl` (an origin such as `http://127.0.0.1:4010`). */
export function openApiControlDocument(appUrl: string): OpenApiDocument {
	built ??= build();
	return {
		openapi: '3.1.1',
		info: {
			title: 'Job Signals mock: control API',
			version: '1',
			description:
				"The job-signals mock's own routes (/__mock/…), and the WireMock admin routes (/__admin/…) it answers beyond stubs (health, version, near misses, verification's warnings): not the service's, so not in its document (/openapi.json). No authentication, no rate limit, no faults; " +
				`the routes that change the mock need \`Content-Type: application/json\` or an ${CONTROL_HEADER} header. Generated from the mock's schemas.`,
			license: DOCUMENT_LICENSE,
		},
		jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
		servers: [{ url: appUrl, description: 'The mock' }],
		tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
		paths: built.paths,
		components: built.components,
	};
}
