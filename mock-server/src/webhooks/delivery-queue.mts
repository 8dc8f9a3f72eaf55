/**
 * The batch queue: deliveries waiting for their first attempt, sent from the head one per spacing
 * (delivery-engine.mts). A reorder takes some out and puts them back elsewhere, so it is an array
 * (with a moving head, compacted now and then) rather than a timer per delivery.
 */
import type { Delivery } from './delivery.mts';

export class DeliveryQueue {
	private items: Delivery[] = [];
	private head = 0;

	get length(): number {
		return this.items.length - this.head;
	}

	push(delivery: Delivery): void {
		this.items.push(delivery);
	}

	shift(): Delivery | undefined {
		if (this.head === this.items.length) return undefined;
		const delivery = this.items[this.head++];
		// Drop the sent part once it is most of the array (a queue of 10,000 is sent over hours).
		if (this.head > 1024 && this.head * 2 > this.items.length) {
			this.items = this.items.slice(this.head);
			this.head = 0;
		}
		return delivery;
	}

	/** Of these envelope ids, those with a delivery waiting here. */
	waiting(ids: ReadonlySet<string>): Set<string> {
		const found = new Set<string>();
		for (let i = this.head; i < this.items.length; i++) {
			const id = this.items[i].envelope.webhook_event_id;
			if (ids.has(id)) found.add(id);
		}
		return found;
	}

	/**
	 * Takes out the first waiting delivery of each of these envelope ids, and puts `make(taken)` in the place of the
	 * first one taken out (at the end when none was waiting).
	 */
	replace(ids: ReadonlySet<string>, make: (taken: ReadonlyMap<string, Delivery>) => Delivery[]): void {
		const taken = new Map<string, Delivery>();
		const kept: Delivery[] = [];
		let at: number | undefined;
		for (let i = this.head; i < this.items.length; i++) {
			const delivery = this.items[i];
			const id = delivery.envelope.webhook_event_id;
			if (ids.has(id) && !taken.has(id)) {
				taken.set(id, delivery);
				at ??= kept.length;
				continue;
			}
			kept.push(delivery);
		}
		kept.splice(at ?? kept.length, 0, ...make(taken));
		this.items = kept;
		this.head = 0;
	}

	clear(): void {
		this.items = [];
		this.head = 0;
	}
}
