/**
 * A stand-in for the deduplication store the n8n server gives n8n-core
 * (`DataDeduplicationService.init`, backed by its processed_data table): per
 * workflow and scope, the values stored, in mode "entries" only: new values
 * appended in the order given, the last `maxEntries` kept, as n8n 2.40.7's
 * DeduplicationHelper does (it stores an md5 of each value, which changes
 * nothing here). One store per test process, as all n8n processes share one database.
 */
import type { DeduplicationItemTypes, DeduplicationScope, ICheckProcessedContextData, ICheckProcessedOptions, IDataDeduplicator } from 'n8n-workflow';
import { coreRuntime } from './runtime.mts';

const stored = new Map<string, string[]>();

const keyOf = (scope: DeduplicationScope, context: ICheckProcessedContextData) =>
	JSON.stringify([context.workflow.id, scope === 'node' ? (context.node?.id ?? '') : '']);

function entriesOnly(options: ICheckProcessedOptions): void {
	if (options.mode !== 'entries') throw new Error(`the harness's deduplication store has mode "entries" only, not "${options.mode}"`);
}

const store: IDataDeduplicator = {
	async checkProcessedAndRecord(items: DeduplicationItemTypes[], scope, context, options) {
		entriesOnly(options);
		const key = keyOf(scope, context);
		const values = stored.get(key) ?? [];
		// A set beside the list only to look up fast: what is kept, and in what order, is the list's.
		const held = new Set(values);
		const output = { new: [] as DeduplicationItemTypes[], processed: [] as DeduplicationItemTypes[] };
		for (const item of items) {
			if (held.has(String(item))) {
				output.processed.push(item);
			} else {
				output.new.push(item);
				values.push(String(item));
				held.add(String(item));
			}
		}
		stored.set(key, options.maxEntries ? values.slice(-options.maxEntries) : values);
		return output;
	},
	async getProcessedDataCount(scope, context, options) {
		entriesOnly(options);
		return stored.get(keyOf(scope, context))?.length ?? 0;
	},
	async removeProcessed() {
		throw new Error('removeProcessed is not in the harness');
	},
	async clearAllProcessedItems() {
		throw new Error('clearAllProcessedItems is not in the harness');
	},
};

let initialised = false;

/** Gives n8n-core the store (once per test process: n8n-core allows one). */
export async function useDeduplicationStore(): Promise<void> {
	if (initialised) return;
	initialised = true;
	await coreRuntime.DataDeduplicationService.init(store);
}
