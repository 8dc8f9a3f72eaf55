/**
 * The nodes' one door to the service contract (contract/ at the repository's
 * ground floor, which the mock stands on too). Plain data and types only: the
 * build compiles what is named here into dist/contract/. The record types come
 * from contract/records.ts, which scripts/contract-types.mts generates from the
 * zod schemas, so the build never reaches zod (docs/architecture.md, "Checking answers").
 */
export { CHOICES, CURSOR_PARAMS, EMAIL_ADDRESS_PATTERN, LIMITS } from '../../contract/api';
export { ANSWERS, EVENT_RECORD_RULES, type AnswerName, type Rule } from '../../contract/answers';
export { ENDPOINTS, fillPath, type AnswerOfEndpoint, type Endpoint, type EndpointName, type ParamsOf } from '../../contract/endpoints';
export {
	WEBHOOK_EVENTS,
	WEBHOOK_EVENT_TYPES,
	eventTypesCarrying,
	isWebhookEventType,
	unhandled,
	type EventRecord,
	type WebhookEventType,
} from '../../contract/events';
export {
	SIGNAL_CATEGORIES,
	SIGNAL_GROUPS,
	findCategory,
	isSignalGroup,
	signalCategoryName,
	signalIds,
	signalTypeName,
} from '../../contract/hierarchy';
export { JOB_CATEGORIES } from '../../contract/job-categories';
export { readSearch } from '../../contract/search-syntax';
export { MAX_REDIRECTS, REDIRECT_STATUSES, getFollowingSameOrigin, isLoopbackHostname, redirectTarget, shownUrl, tokenRoute, type RefusedRedirect } from '../../contract/token-transport';
export { RECORD_FIELDS, RECORD_ID_FIELDS, type RecordKind } from '../../contract/record-fields';
export type {
	Collection,
	Filters,
	Job,
	JobSearchEnvelope,
	JobsEnvelope,
	Signal,
	SignalsEnvelope,
	Source,
	SourcesEnvelope,
	WebhookEvent,
	WebhookSetting,
} from '../../contract/records';
