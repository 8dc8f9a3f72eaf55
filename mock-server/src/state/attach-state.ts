/**
 * Puts a state folder's saved changes back over the freshly seeded data, then
 * has every later change saved: data changes from the store, webhook settings,
 * fault rules, delivery attempts, and (through savePosition) the processor's
 * position. Restoring happens before the listeners are attached, so nothing
 * restored is written again.
 */
import type { Job, Signal, Source, WebhookSetting } from '../../../contract/schemas';
import type { StoredJob, Subscriber } from '../data/model';
import { placeText, searchText } from '../data/generate';
import type { Store } from '../data/store';
import type { FaultRule, Faults } from '../http/faults';
import type { ProcessorPosition } from '../process/cycle';
import { MAX_LOG_ENTRIES, type DeliveryEngine, type DeliveryLogEntry } from '../webhooks/delivery-engine';
import type { WebhookSettingsStore } from '../webhooks/settings-store';
import { StateFolder } from './state-folder';

export interface PersistedParts {
	store: Store;
	settings: WebhookSettingsStore;
	faults: Faults;
	engine: DeliveryEngine;
}

export interface AttachedState {
	/** The processor's saved position, if a cycle ever ran. */
	position: ProcessorPosition | undefined;
	/** How many changed records and logged attempts were restored. */
	restored: { records: number; deliveries: number };
	savePosition(position: ProcessorPosition): void;
	/** Drops every saved change (reset). */
	clear(): void;
	close(): void;
}

export async function attachState(dir: string, dataSet: Record<string, unknown>, parts: PersistedParts): Promise<AttachedState> {
	const { store, settings, faults, engine } = parts;
	const folder = await StateFolder.open(dir, dataSet, MAX_LOG_ENTRIES);
	const saved = folder.read();
	let position: ProcessorPosition | undefined;
	for (const { kind, id, value } of saved.records) {
		switch (kind) {
			case 'job':
				restoreJob(store, id, value as Job | null);
				break;
			case 'source':
				store.replaceSource(value as Source);
				break;
			case 'signal':
				store.putSignal(value as Signal);
				break;
			case 'subscriber':
				await store.addSubscriber(value as Subscriber);
				break;
			case 'webhook':
				if (value !== null) {
					const { account_id, setting } = value as { account_id: string; setting: WebhookSetting };
					settings.restore(account_id, setting);
				}
				break;
			case 'faults':
				faults.set(value as FaultRule[]);
				break;
			case 'processor':
				position = value as ProcessorPosition;
				break;
			default:
				throw new Error(`${dir}: unknown record kind "${kind}" (written by a newer mock?)`);
		}
	}
	engine.restoreLog(saved.deliveries as DeliveryLogEntry[]);

	store.onChange = (change) => folder.put(change.kind, change.id, change.value);
	settings.onChange = (accountId, webhookId, setting) => folder.put('webhook', webhookId, setting && { account_id: accountId, setting });
	faults.onChange = (rules) => folder.put('faults', 'rules', rules);
	engine.onRecord = (entry) => folder.appendDelivery(entry);
	return {
		position,
		restored: { records: saved.records.length, deliveries: saved.deliveries.length },
		savePosition: (p) => folder.put('processor', 'position', p),
		clear: () => folder.clear(),
		close: () => folder.close(),
	};
}

/** A saved job is the latest value of a seeded or created job; null means it was deleted. */
function restoreJob(store: Store, id: string, job: Job | null): void {
	if (job === null) {
		store.removeJob(id);
		return;
	}
	const stored: StoredJob = { job, text: searchText(job), places: placeText(job) };
	if (store.jobs.has(id)) store.replaceJob(stored);
	else store.addJob(stored);
}
