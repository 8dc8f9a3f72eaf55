/**
 * The mock's webhooks: settings per account and the delivery engine, put
 * together once so the service wires in a single object. Their HTTP side is
 * handlers/webhooks.mts (the settings API) and the control route
 * /__mock/deliveries (handlers/control.mts).
 */
import { DeliveryEngine } from './delivery-engine.mts';
import { WebhookSettingsStore } from './settings-store.mts';

export { DeliveryEngine, type DeliveryLogEntry } from './delivery-engine.mts';
export type { CycleEvent } from './envelope.mts';
export { WebhookSettingsStore } from './settings-store.mts';

export interface WebhooksOptions {
	organizationIdOf: (accountId: string) => string;
	timeScale?: number;
	nowSeconds?: () => number;
	/** The delivery queue's caps (delivery-engine.mts). */
	maxQueued?: number;
	maxQueuedPerAccount?: number;
}

export function createWebhooks(options: WebhooksOptions) {
	const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
	const settings = new WebhookSettingsStore();
	const engine = new DeliveryEngine({ ...options, settings, nowSeconds });
	return {
		settings,
		engine,
		/** Back to the seed state: no settings, nothing queued, empty log. */
		reset(): void {
			engine.reset();
			settings.clear();
		},
	};
}

export type Webhooks = ReturnType<typeof createWebhooks>;
