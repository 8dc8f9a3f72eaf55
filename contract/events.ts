/**
 * The webhook event types the service sends (spec, "Events") and the record each
 * carries in `event_data`. Plain data only (no imports): the trigger node
 * compiles it; schemas.ts builds the envelope schema from it. A new type is
 * added here, and the type check then names every place that must handle it.
 */
export const WEBHOOK_EVENTS = {
	job_created: { carries: 'job' },
	job_updated: { carries: 'job' },
	job_deleted: { carries: 'job' },
	/** The signal object (assumed: the spec does not show the payload). */
	signal: { carries: 'signal' },
} as const satisfies Record<string, { carries: 'job' | 'signal' }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
/** The record kind an event carries. */
export type EventRecord = (typeof WEBHOOK_EVENTS)[WebhookEventType]['carries'];

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
	return typeof value === 'string' && Object.hasOwn(WEBHOOK_EVENTS, value);
}

/** The event types whose `event_data` is this kind of record. */
export function eventTypesCarrying(record: EventRecord): WebhookEventType[] {
	return WEBHOOK_EVENT_TYPES.filter((type) => WEBHOOK_EVENTS[type].carries === record);
}

/** A switch over event types or records that the type check holds to be exhaustive: its default is unreachable. */
export function unhandled(value: never): never {
	throw new Error(`Unhandled webhook event kind: ${String(value)}`);
}
