/**
 * The trigger's `execute()`: n8n runs it as the first step of the execution a
 * delivery started (a node type with `execute` is executed, not passed
 * through). It writes the delivered events, and every event this process
 * claimed for the trigger, into the persisted window (as keys,
 * dedupe-window.ts); n8n saves the changed static data when the execution
 * ends. The union with the process's claims means a save never drops an
 * event that an overlapping execution of this process stored. When an
 * earlier execution's write already holds the delivered events and a later
 * execution is still to come, it writes nothing (process-window.ts,
 * `writtenBefore`): each write costs n8n a database update.
 *
 * On a queue-mode worker the static data was not loaded and nothing is
 * written there (see dedupe-window.ts). There the ids are stored in n8n's
 * database instead, through the deduplication helpers n8n gives a node inside
 * an execution, and an id stored before passes nothing on: a repeat that
 * reached another webhook process, or one after the webhook processes
 * restarted, starts an execution that ends at the trigger. The helpers keep
 * the newest WINDOW_SIZE ids and drop older ones (n8n's Remove Duplicates
 * throws instead once its history is full). Two workers' writes can drop each
 * other's ids; each store is asserted again once they have landed
 * (shared/seen-ids.ts, docs/guarantees.md, "Webhook trigger: exactly once").
 *
 * Then the items that pass go on as the node's Output asks (version 1.1;
 * version 1 items pass through unchanged).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { eventKey, isLoadedStaticData, PERSISTED_WINDOW, recordInPersistedWindow, WINDOW_SIZE } from './dedupe-window';
import { rememberSeenIds } from '../shared/seen-ids';
import { newestClaims, storedInProcess, triggerKey, writtenBefore, wroteClaims } from './process-window';
import { shapeEvents, TRIGGER_OUTPUT_VERSION } from './event-output';

export async function writeWindow(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const delivered = items.map((item) => item.json.webhook_event_id).filter((id): id is string => typeof id === 'string');
	const deliveredKeys = delivered.map(eventKey);
	// n8n's getNode() deep-copies the node with all its parameters: one copy serves the execution.
	const node = this.getNode();
	const trigger = triggerKey(this.getWorkflow().id, node.id);
	const staticData = this.getWorkflowStaticData('node');
	const written = isLoadedStaticData(staticData) && writtenBefore(trigger, deliveredKeys);
	const persisted = written || recordInPersistedWindow(staticData, newestClaims(trigger, deliveredKeys, PERSISTED_WINDOW));
	if (persisted && !written) wroteClaims(trigger);
	storedInProcess(trigger, deliveredKeys);
	const paired = items.map((item, index) => ({ ...item, pairedItem: { item: index } }));
	const passing = persisted || delivered.length === 0 ? paired : await newInDatabase(this, trigger, delivered, paired);
	if (node.typeVersion >= TRIGGER_OUTPUT_VERSION) return [shapeEvents(passing, (name, fallback) => this.getNodeParameter(name, 0, fallback), node)];
	return [passing];
}

/** The items whose ids the database had not stored yet (a queue-mode worker), storing them. */
async function newInDatabase(context: IExecuteFunctions, key: string, delivered: string[], paired: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const fresh = new Set(await rememberSeenIds(context, key, delivered, WINDOW_SIZE));
	return paired.filter((item) => fresh.has(String(item.json.webhook_event_id)));
}
