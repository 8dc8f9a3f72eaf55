/** One delivery: an envelope on its way to one URL, how it came about, and the error the receiver knobs answer with. */
import type { WebhookEvent } from '../base/contract.mts';

/**
 * How a delivery came about, in the delivery log: a cycle's or a chosen event's (`cycle`), or one of
 * the receiver knobs (delivery-engine.mts): `redelivery`, `copy`, `reordered`.
 */
export type DeliveryOrigin = 'cycle' | 'redelivery' | 'copy' | 'reordered';

export interface Delivery {
	envelope: WebhookEvent;
	/** The envelope's JSON, made once: every attempt and every redelivery sends these same bytes. */
	body: string;
	url: string;
	accountId: string;
	origin: DeliveryOrigin;
}

/** What a receiver knob queued: one entry per delivery, in sending order. */
export interface QueuedDelivery {
	webhook_event_id: string;
	webhook_id: string;
	account_id: string;
	url: string;
	origin: DeliveryOrigin;
	/** Only from a reorder: the delivery was still waiting for its first attempt and was moved (the receiver gets it once), not sent again. */
	moved?: boolean;
}

/** A receiver knob refused: `status` is the control route's answer (400 bad input, 404 unknown, 409 full). */
export class DeliveryKnobError extends Error {
	constructor(
		readonly status: 400 | 404 | 409,
		message: string,
	) {
		super(message);
		this.name = 'DeliveryKnobError';
	}
}

export function queuedDelivery(delivery: Delivery, moved?: boolean): QueuedDelivery {
	const { webhook_event_id, webhook_id } = delivery.envelope;
	return { webhook_event_id, webhook_id, account_id: delivery.accountId, url: delivery.url, origin: delivery.origin, ...(moved === undefined ? {} : { moved }) };
}
