/**
 * The mock's webhooks: settings per account, the delivery engine, and their
 * HTTP handlers, put together once so the service wires in a single object.
 */
import { Faults } from '../http/faults.mts';
import type { Journal } from '../http/journal.mts';
import { DeliveryEngine } from './delivery-engine.mts';
import { webhookHandlers, type AuthenticateRequest } from './handlers.mts';
import { WebhookSettingsStore } from './settings-store.mts';

export { DeliveryEngine, type DeliveryLogEntry } from './delivery-engine.mts';
export type { CycleEvent } from './envelope.mts';
export type { AuthenticateRequest } from './handlers.mts';
export { WebhookSettingsStore } from './settings-store.mts';

export interface WebhooksOptions {
	organizationIdOf: (accountId: string) => string;
	timeScale?: number;
	nowSeconds?: () => number;
	/** The service's fault rules, which the settings routes obey like every app route (default: none). */
	faults?: Faults;
	/** The service's request journal (default: none). */
	journal?: Journal;
	/** The delivery queue's caps (delivery-engine.ts). */
	maxQueued?: number;
	maxQueuedPerAccount?: number;
}

export function createWebhooks(options: WebhooksOptions) {
	const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
	const faults = options.faults ?? new Faults();
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
		handlers: (
			authenticate: AuthenticateRequest,
			errorResponse: (status: number, message: string) => Response,
		) => webhookHandlers({ settings, engine, faults, journal: options.journal, authenticate, errorResponse, nowSeconds }),
	};
}

export type Webhooks = ReturnType<typeof createWebhooks>;
