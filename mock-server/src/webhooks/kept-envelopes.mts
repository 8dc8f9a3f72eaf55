/**
 * The envelopes the engine made, kept for the receiver knobs (redeliver, copies, reorder): the last
 * MAX_KEPT_ENVELOPES, each with its JSON and the URL it was made for, and the ids of the last batch.
 * Memory only: a reset or a restart forgets them (the delivery log, in a state folder, remains).
 */
import { DeliveryKnobError, type Delivery } from './delivery.mts';

/** About 2 KB each (the envelope's JSON): 20 MB at most. */
export const MAX_KEPT_ENVELOPES = 10_000;

export class KeptEnvelopes {
	/** In the order they were made: the first is the oldest, dropped first. */
	private readonly byId = new Map<string, Delivery>();
	private batch: string[] = [];

	keep(delivery: Delivery): void {
		this.byId.set(delivery.envelope.webhook_event_id, delivery);
		if (this.byId.size > MAX_KEPT_ENVELOPES) this.byId.delete(this.byId.keys().next().value as string);
	}

	/** The envelope's delivery as made (its origin `cycle`), or a 404 knob error. */
	get(webhookEventId: string): Delivery {
		const delivery = this.byId.get(webhookEventId);
		if (delivery === undefined) {
			throw new DeliveryKnobError(
				404,
				`No envelope with webhook_event_id "${webhookEventId}": the mock keeps the last ${MAX_KEPT_ENVELOPES} envelopes it made, in memory (a reset or a restart forgets them)`,
			);
		}
		return delivery;
	}

	/** The envelopes of the latest cycle or event that made any, in sending order (the last MAX_KEPT_ENVELOPES of them). */
	lastBatch(): string[] {
		return this.batch.filter((id) => this.byId.has(id));
	}

	setLastBatch(ids: readonly string[]): void {
		if (ids.length > 0) this.batch = ids.slice(-MAX_KEPT_ENVELOPES);
	}

	clear(): void {
		this.byId.clear();
		this.batch = [];
	}
}
