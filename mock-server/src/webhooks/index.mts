/**
 * The mock's webhooks: settings per account and the delivery engine, put
 * together once so the service wires in a single object. Their HTTP side is
 * handlers/webhooks.mts (the settings API) and the control routes under
 * /__mock/deliveries (handlers/control.mts, receiver-knobs/routes.mts).
 */
import { MockClock } from '../base/clock.mts';
import { DeliveryEngine } from './delivery-engine.mts';
import type { FailureRuleInput } from './failure-rules.mts';
import { WebhookSettingsStore } from './settings-store.mts';

export { DeliveryEngine, type DeliveryLogEntry } from './delivery-engine.mts';
export { DeliveryKnobError, type DeliveryOrigin, type QueuedDelivery } from './delivery.mts';
export type { CycleEvent } from './envelope.mts';
export type { FailureRule, FailureRuleInput } from './failure-rules.mts';
export { WebhookSettingsStore } from './settings-store.mts';

export interface WebhooksOptions {
	organizationIdOf: (accountId: string) => string;
	timeScale?: number;
	/** The clock of envelopes, the log and every wait (default: a clock of its own on the wall clock). */
	clock?: MockClock;
	/** The delivery queue's caps (delivery-engine.mts). */
	maxQueued?: number;
	maxQueuedPerAccount?: number;
}

export function createWebhooks(options: WebhooksOptions) {
	const clock = options.clock ?? new MockClock();
	const settings = new WebhookSettingsStore();
	const engine = new DeliveryEngine({ ...options, settings, clock });
	return {
		settings,
		engine,
		/** The receiver knobs, as the service offers them in-process (each throws DeliveryKnobError, whose `status` the control routes answer). */
		knobs: {
			redeliver: (webhookEventId: string) => engine.redeliver(webhookEventId),
			sendCopies: (webhookEventId: string, copies: number, options?: { atOnce?: boolean }) => engine.sendCopies(webhookEventId, copies, options),
			reorder: (webhookEventIds?: readonly string[]) => engine.reorder(webhookEventIds),
			failNext: (rule: FailureRuleInput) => engine.failures.add(rule, (target) => settings.has(target)),
			deliveryFailures: () => engine.failures.list(),
			clearDeliveryFailures: () => engine.failures.clear(),
		},
		/** Back to the seed state: no settings, nothing queued, empty log, no kept envelopes or failure rules. */
		reset(): void {
			engine.reset();
			settings.clear();
		},
	};
}

export type Webhooks = ReturnType<typeof createWebhooks>;
