/**
 * Puts a state folder's saved changes back over the freshly seeded data, then
 * has every later change saved: data changes from the store, webhook settings,
 * fault rules, delivery attempts, and (through savePosition) the cycle runner's
 * position. Restoring happens before the listeners are attached, so nothing
 * restored is written again.
 */
import { jobSchema, signalSchema, sourceSchema, webhookSettingSchema, type Job, type WebhookSetting } from '../base/contract.mts';
import type { StoredJob, Subscriber } from '../data/model.mts';
import { placeText, searchText } from '../data/generate.mts';
import type { Store } from '../data/store.mts';
import { faultsBodySchema, matchesOnlyControlRoutes, type FaultRule, type Faults } from '../http/faults.mts';
import type { CyclePosition } from '../cycles/cycle.mts';
import type { Work } from '../base/work.mts';
import { z } from 'zod/v4';
import { MAX_LOG_ENTRIES, type DeliveryEngine, type DeliveryLogEntry } from '../webhooks/delivery-engine.mts';
import type { WebhookSettingsStore } from '../webhooks/settings-store.mts';
import { StateFolder, StateFolderError } from './state-folder.mts';

export interface PersistedParts {
	store: Store;
	settings: WebhookSettingsStore;
	faults: Faults;
	engine: DeliveryEngine;
}

/** What GET /__mock/state answers about the folder. */
export interface Persistence {
	state_dir: string;
	/** False once a write failed: changes since are in memory only. */
	persisting: boolean;
	/** SQLite's error that stopped the saving, else null. */
	error: string | null;
}

export interface AttachedState {
	persistence(): Persistence;
	/** The cycle runner's saved position, if a cycle ever ran. */
	position: CyclePosition | undefined;
	/** How many changed records and logged attempts were restored. */
	restored: { records: number; deliveries: number };
	savePosition(position: CyclePosition): void;
	/** Holds the writes from now on (a cycle's, made over many turns)… */
	hold(): void;
	/** …and saves them in one transaction, a share per turn. */
	release(work: Work): Promise<void>;
	/** Drops every saved change (reset). */
	clear(): void;
	close(): void;
}

export async function attachState(dir: string, dataSet: Record<string, unknown>, parts: PersistedParts): Promise<AttachedState> {
	const { store, settings, faults, engine } = parts;
	const folder = await StateFolder.open(dir, dataSet, MAX_LOG_ENTRIES);
	let position: CyclePosition | undefined;
	let saved: ReturnType<StateFolder['read']>;
	try {
		saved = folder.read();
		for (const record of saved.records) {
			try {
				position = (await restore(record, parts)) ?? position;
			} catch (error) {
				if (error instanceof StateFolderError) throw error;
				throw new StateFolderError(`${folder.file}: record ${record.kind} "${record.id}" cannot be restored: ${(error as Error).message}. Move the file away to start from the seed, or delete that row`);
			}
		}
	} catch (error) {
		// A refused folder must not stay locked by this process.
		folder.close();
		throw error;
	}
	engine.restoreLog(saved.deliveries as DeliveryLogEntry[]);

	// A created record that is gone leaves no row (the seed never had it): rows stay bounded by the seed and the created-records cap.
	store.onChange = (change) => ('forget' in change && change.forget ? folder.remove(change.kind, change.id) : folder.put(change.kind, change.id, change.value));
	settings.onChange = (accountId, webhookId, setting) => folder.put('webhook', webhookId, setting && { account_id: accountId, setting });
	faults.onChange = (rules) => folder.put('faults', 'rules', rules);
	engine.onRecord = (entry) => folder.appendDelivery(entry);
	return {
		persistence: () => ({ state_dir: dir, persisting: folder.failure() === undefined, error: folder.failure() ?? null }),
		position,
		restored: { records: saved.records.length, deliveries: saved.deliveries.length },
		// 'processor' is the kind's name in state folders written before the cycle runner was named so: kept, so they load.
		savePosition: (p) => folder.put('processor', 'position', p),
		hold: () => folder.hold(),
		release: (work) => folder.release(work),
		clear: () => folder.clear(),
		close: () => folder.close(),
	};
}

/** The saved records of the kinds the contract has a schema for are checked against it: a damaged one is refused, not served. */
const checked = <S extends z.ZodType>(schema: S, value: unknown): z.infer<S> => {
	const parsed = schema.safeParse(value);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	throw new Error(`${issue.path.join('.') || 'the value'}: ${issue.message}`);
};

const withoutControlRules = (rules: unknown): unknown =>
	Array.isArray(rules) ? rules.filter((rule: { path?: unknown } | null) => !(typeof rule?.path === 'string' && matchesOnlyControlRoutes(rule.path))) : rules;

/** Puts one saved record back; returns the cycle runner's position for that record. */
async function restore({ kind, id, value }: { kind: string; id: string; value: unknown }, parts: PersistedParts): Promise<CyclePosition | undefined> {
	const { store, settings, faults } = parts;
	switch (kind) {
		case 'job':
			restoreJob(store, id, value === null ? null : checked(jobSchema, value));
			break;
		case 'source':
			store.replaceSource(checked(sourceSchema, value));
			break;
		case 'signal':
			store.putSignal(checked(signalSchema, value));
			break;
		case 'subscriber':
			await store.addSubscribers([value as Subscriber]);
			break;
		case 'webhook':
			if (value !== null) {
				const { account_id, setting } = checked(z.object({ account_id: z.string().min(1), setting: webhookSettingSchema }), value);
				settings.restore(account_id, setting as WebhookSetting);
			}
			break;
		case 'faults':
			// A folder saved before /__mock rules were refused may hold some: they never applied, so they are left out.
			faults.set(checked(faultsBodySchema.shape.faults, withoutControlRules(value)) as FaultRule[]);
			break;
		case 'processor':
			return value as CyclePosition;
		default:
			throw new Error(`unknown record kind "${kind}" (written by a newer mock?)`);
	}
	return undefined;
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
