/**
 * The webhook event types the service sends (spec, "Events"). Plain data only
 * (no imports): the trigger node bundles this list; schemas.ts builds the
 * envelope schema from it.
 */
export const WEBHOOK_EVENT_TYPES = ['job_created', 'job_updated', 'job_deleted', 'signal'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
