/**
 * Version 1.1's items: the delivery phase emits every field of the event (the record and the envelope's, whose times
 * get a webhook_ prefix beside the job's own), and the execution shapes it as Output asks (Simplified, Raw, Selected
 * Fields: the action node's shapes, from nodes/shared/output) once record-execution.ts has recorded its id.
 */
import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { RECORD_FIELDS, RECORD_ID_FIELDS } from '../shared/contract';
import { outputProperties } from '../shared/output/properties';
import { readOutputChoice, shapeRecord, type OutputChoice } from '../shared/output/shape';
import type { Envelope } from './envelope';

/** The first trigger version with Output and filters (and past n8n's Webhook-v1 body parsing: README, "Trigger versions"). */
export const OUTPUT_VERSION = 1.1;

/** The envelope's fields in an item: its times prefixed, as the job's own created_at and updated_at sit beside them. */
const envelopeField = (field: string) => (field === 'created_at' || field === 'updated_at' ? `webhook_${field}` : field);
export const EVENT_FIELDS = RECORD_FIELDS.webhookEvent.map(envelopeField);

export const outputProperty: INodeProperties[] = outputProperties(['job', 'signal'], { '@version': [{ _cnd: { gte: OUTPUT_VERSION } }] }, {
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
export function shapeEvent(item: IDataObject, choice: OutputChoice): IDataObject {
	const kind = item.event_type === 'signal' ? 'signal' : 'job';
	if (choice.mode !== 'simplified') return shapeRecord(item, kind, choice);
	return { event_type: item.event_type, webhook_event_id: item.webhook_event_id, ...shapeRecord(item, kind, choice) };
}

export function shapeEvents(items: INodeExecutionData[], read: (name: string, fallback: unknown) => unknown, node: Parameters<typeof readOutputChoice>[0]): INodeExecutionData[] {
	const choice = readOutputChoice(node, read);
	// An item keeps the input it came from (a queue-mode worker may have dropped repeats before it).
	return items.map((item, index) => ({ json: shapeEvent(item.json, choice), pairedItem: item.pairedItem ?? { item: index } }));
}
