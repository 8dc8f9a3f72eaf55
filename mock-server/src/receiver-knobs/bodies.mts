/**
 * The bodies of the receiver knobs' control routes (POST /__mock/deliveries/redeliver, /copies, /reorder;
 * the failure rule's is failure-rules.mts): receiver-knobs/routes.mts parses with them, the control
 * API's OpenAPI document (openapi/control-document.mts) is written from them.
 */
import { z } from 'zod/v4';
import { MAX_COPIES, MAX_REORDERED } from '../webhooks/delivery-engine.mts';

const eventId = z.string().min(1).max(200);

export const redeliverBodySchema = z.strictObject({ webhook_event_id: eventId });

export const copiesBodySchema = z.strictObject({
	webhook_event_id: eventId,
	copies: z.number().int().min(1).max(MAX_COPIES),
	at_once: z.boolean().default(false).describe('true: all started together (a race for the receiver’s dedupe); false: one per batch spacing'),
});

/** No body, like {}, is the last batch reversed. */
export const reorderBodySchema = z.strictObject({
	webhook_event_ids: z.array(eventId).min(1).max(MAX_REORDERED).optional().describe('The envelopes in their new order, each once; left out: the last batch reversed'),
});
