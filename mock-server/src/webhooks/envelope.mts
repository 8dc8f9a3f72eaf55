/** Wraps one cycle event in the spec's webhook envelope for one webhook setting. */
import { randomUUID } from 'node:crypto';
import { type WebhookEvent, type WebhookEventType } from '../base/contract.mts';

/** What a cycle reports: which account the event belongs to, its type and its data. */
export interface CycleEvent {
	account_id: string;
	event_type: WebhookEventType;
	event_data: WebhookEvent['event_data'];
}

/**
 * `webhook_event_id` is random (not a counter) so that ids never repeat after a
 * reset: receivers dedupe on it, and a repeated id would silently drop a new event.
 * Each setting gets its own envelope, as each is its own webhook.
 */
export function buildEnvelope(
	event: CycleEvent,
	webhookId: string,
	organizationId: string,
	nowSeconds: number,
): WebhookEvent {
	return {
		webhook_event_id: `whe_${randomUUID()}`,
		webhook_id: webhookId,
		organization_id: organizationId,
		event_type: event.event_type,
		event_data: event.event_data,
		created_at: nowSeconds,
		updated_at: nowSeconds,
	};
}
