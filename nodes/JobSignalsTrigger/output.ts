/** Shapes the item a delivery emits. */
import type { IDataObject } from 'n8n-workflow';
import type { Envelope } from './envelope';

export type OutputMode = 'eventData' | 'envelope';

/**
 * By default the job or signal itself, with the envelope's identity and times
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
