/**
 * Webhook settings per account: what the service's web application stores on
 * its settings page (URL, event types, optional secret key). One account never
 * sees or removes another's entries: every method takes the account id.
 */
import { randomUUID } from 'node:crypto';
import { type WebhookEventType, type WebhookSetting } from '../base/contract.mts';

export interface WebhookSettingInput {
	url: string;
	event_types: WebhookEventType[];
	secret_key?: string;
}

export class WebhookSettingsStore {
	private readonly byAccount = new Map<string, Map<string, WebhookSetting>>();
	/** Told of every entry created (the setting) or removed (null), so a state folder can save it. */
	onChange?: (accountId: string, webhookId: string, setting: WebhookSetting | null) => void;

	list(accountId: string): WebhookSetting[] {
		return [...(this.byAccount.get(accountId)?.values() ?? [])];
	}

	/** Ids are random so that an id never comes back after a reset and points at a different entry. */
	create(accountId: string, input: WebhookSettingInput, nowSeconds: number): WebhookSetting {
		const setting: WebhookSetting = {
			webhook_id: `wh_${randomUUID()}`,
			url: input.url,
			event_types: [...new Set(input.event_types)],
			...(input.secret_key === undefined ? {} : { secret_key: input.secret_key }),
			created_at: nowSeconds,
		};
		this.restore(accountId, setting);
		this.onChange?.(accountId, setting.webhook_id, setting);
		return setting;
	}

	/** Puts back an entry as it was saved (a state folder on start). */
	restore(accountId: string, setting: WebhookSetting): void {
		let settings = this.byAccount.get(accountId);
		if (settings === undefined) {
			settings = new Map();
			this.byAccount.set(accountId, settings);
		}
		settings.set(setting.webhook_id, setting);
	}

	/** False when the id is unknown to this account (whether or not another account has it). */
	remove(accountId: string, webhookId: string): boolean {
		const removed = this.byAccount.get(accountId)?.delete(webhookId) ?? false;
		if (removed) this.onChange?.(accountId, webhookId, null);
		return removed;
	}

	/** Whether any account has a setting with this webhook_id, or with this url (exactly as registered). */
	has(target: { webhook_id?: string; url?: string }): boolean {
		for (const settings of this.byAccount.values()) {
			for (const setting of settings.values()) {
				if (setting.webhook_id === target.webhook_id || setting.url === target.url) return true;
			}
		}
		return false;
	}

	subscribedTo(accountId: string, eventType: WebhookEventType): WebhookSetting[] {
		return this.list(accountId).filter((setting) => setting.event_types.includes(eventType));
	}

	clear(): void {
		this.byAccount.clear();
	}
}
