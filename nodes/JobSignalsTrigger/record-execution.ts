/**
 * The trigger's `execute()`: n8n runs it as the first step of the execution a
 * delivery started (a node type with `execute` is executed, not passed
 * through). It writes the delivered ids, and every id this process claimed
 * for the trigger, into the persisted window; n8n saves the changed static
 * data when the execution ends. The union with the process's claims means a save never drops an id
 * that an overlapping execution of this process recorded.
 *
 * On a queue-mode worker the static data was not loaded and nothing is
 * written there (see dedupe-window.ts). There the ids are recorded in n8n's
 * database instead, through the deduplication helpers n8n gives a node inside
 * an execution, and an id recorded before passes nothing on: a repeat that
 * reached another webhook process, or one after the webhook processes
 * restarted, starts an execution that ends at the trigger. The helpers keep
 * the newest WINDOW_SIZE ids and drop older ones (n8n's Remove Duplicates
 * throws instead once its history is full).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { recordInPersistedWindow, WINDOW_SIZE } from './dedupe-window';
import { claimedInProcess, recordedInProcess, triggerKey } from './process-window';

export async function recordExecution(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const delivered = items.map((item) => item.json.webhook_event_id).filter((id): id is string => typeof id === 'string');
	const key = triggerKey(this.getWorkflow().id, this.getNode().id);
	const persisted = recordInPersistedWindow(this.getWorkflowStaticData('node'), [...claimedInProcess(key), ...delivered]);
	recordedInProcess(key, delivered);
	const paired = items.map((item, index) => ({ ...item, pairedItem: { item: index } }));
	if (persisted || delivered.length === 0) return [paired];
	const recorded = await this.helpers.checkProcessedAndRecord(delivered, 'node', { mode: 'entries', maxEntries: WINDOW_SIZE });
	const fresh = new Set(recorded.new.map(String));
	return [paired.filter((item) => fresh.has(String(item.json.webhook_event_id)))];
}
