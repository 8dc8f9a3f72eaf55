/**
 * What a delivery emits. Version 1: the record (or the whole envelope) as Options → Output says (toOutput).
 * From TRIGGER_OUTPUT_VERSION: the delivery phase emits every field of the event (the record and the envelope's, whose times
 * get a webhook_ prefix beside the job's own), and the execution shapes it as Output asks (Simplified, Raw, Selected
 * Fields: the action node's shapes, from nodes/shared/output) once write-window.ts has stored its id.
 */
import { NodeOperationError, type IDataObject, type INode, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';
import { isWebhookEventType, RECORD_FIELDS, RECORD_ID_FIELDS, WEBHOOK_EVENTS } from '../shared/contract';
import { outputProperties } from '../shared/output/properties';
import { readOutputChoice, shapeRecord, type OutputChoice } from '../shared/output/shape';
import type { Envelope } from './envelope';

/** The first trigger version with Output and filters (and past n8n's Webhook-v1 body parsing: docs/trigger.md). */
export const TRIGGER_OUTPUT_VERSION = 1.1;

export type OutputMode = 'eventData' | 'envelope';

/**
 * Version 1's item: by default the job or signal itself, with the envelope's identity and times
 * beside it. The envelope's times get a `webhook_` prefix because the job has
 * its own `created_at`/`updated_at`, which are the ones to order jobs by.
 */
export function toOutput(envelope: Envelope, mode: OutputMode): IDataObject {
	if (mode === 'envelope') return { ...envelope };
	return {
		...envelope.event_data,
		event_type: envelope.event_type,
		webhook_event_id: envelope.webhook_event_id,
		webhook_created_at: envelope.created_at,
		webhook_updated_at: envelope.updated_at,
	};
}

/** The envelope's fields in an item: its times prefixed, as the job's own created_at and updated_at sit beside them. */
const envelopeField = (field: string) => (field === 'created_at' || field === 'updated_at' ? `webhook_${field}` : field);
export const EVENT_FIELDS = RECORD_FIELDS.webhookEvent.map(envelopeField);

export const outputProperty: INodeProperties[] = outputProperties(['job', 'signal'], { '@version': [{ _cnd: { gte: TRIGGER_OUTPUT_VERSION } }] }, {
	simplified: ['event_type', 'webhook_event_id'],
	fields: EVENT_FIELDS,
	// Selected Fields starts with webhook_event_id beside the job's and the signal's id (properties.ts says why).
	ids: [RECORD_ID_FIELDS.webhookEvent],
});

/** Every field of the event: the record's, then the envelope's. */
export function eventItem(envelope: Envelope): IDataObject {
	const item: IDataObject = { ...envelope.event_data };
	for (const field of RECORD_FIELDS.webhookEvent) if (field !== 'created_at' && field !== 'updated_at') item[field] = envelope[field];
	item.webhook_created_at = envelope.created_at;
	item.webhook_updated_at = envelope.updated_at;
	return item;
}

/** An event item as Output asks; Simplified keeps event_type and webhook_event_id (to route and deduplicate on) beside the record's simplified fields. */
export function shapeEvent(node: INode, item: IDataObject, choice: OutputChoice): IDataObject {
	// The item came from a checked envelope; a type this version does not know is refused, never taken for another.
	if (!isWebhookEventType(item.event_type)) throw new NodeOperationError(node, `Unknown webhook event type: ${String(item.event_type)}`);
	const kind = WEBHOOK_EVENTS[item.event_type].carries;
	if (choice.mode !== 'simplified') return shapeRecord(item, kind, choice);
	return { event_type: item.event_type, webhook_event_id: item.webhook_event_id, ...shapeRecord(item, kind, choice) };
}

export function shapeEvents(items: INodeExecutionData[], read: (name: string, fallback: unknown) => unknown, node: INode): INodeExecutionData[] {
	const choice = readOutputChoice(node, read);
	// An item keeps the input it came from (a queue-mode worker may have dropped repeats before it).
	return items.map((item, index) => ({ json: shapeEvent(node, item.json, choice), pairedItem: item.pairedItem ?? { item: index } }));
}
