/**
 * The trigger's `execute()`: n8n runs it as the first step of the execution a
 * delivery started (a node type with `execute` is executed, not passed
 * through). It writes the delivered ids, and every id this process claimed
 * for the trigger, into the persisted window; n8n saves the changed static
 * data when the execution ends. The union with the process's claims means a save never drops an id
 * that an overlapping execution of this process recorded. On a queue-mode
 * worker the static data was not loaded and nothing is written (see
 * dedupe-window.ts). Then the items go on as the node's Output asks (version 1.1;
 * version 1 items pass through unchanged).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { recordInPersistedWindow } from './dedupe-window';
import { claimedInProcess, recordedInProcess, triggerKey } from './process-window';
import { OUTPUT_VERSION, shapeEvents } from './event-output';

export function recordExecution(this: IExecuteFunctions): INodeExecutionData[][] {
	const items = this.getInputData();
	const delivered = items.map((item) => item.json.webhook_event_id).filter((id): id is string => typeof id === 'string');
	const key = triggerKey(this.getWorkflow().id, this.getNode().id);
	recordInPersistedWindow(this.getWorkflowStaticData('node'), [...claimedInProcess(key), ...delivered]);
	recordedInProcess(key, delivered);
	if (this.getNode().typeVersion >= OUTPUT_VERSION) return [shapeEvents(items, (name, fallback) => this.getNodeParameter(name, 0, fallback), this.getNode())];
	return [items.map((item, index) => ({ ...item, pairedItem: { item: index } }))];
}
