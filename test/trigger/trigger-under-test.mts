/** The harness (harness.mts) around the trigger's TypeScript source, for the tests. */
import { vi } from 'vitest';
import { JobSignalsTrigger } from '../../nodes/JobSignalsTrigger/JobSignalsTrigger.node';
import { createTrigger as harness, type TriggerOptions } from '../../harness/in-process/trigger.mts';

export const createTrigger = (options: Omit<TriggerOptions, 'nodeType'> = {}) =>
	harness({ ...options, nodeType: new JobSignalsTrigger() });

/**
 * The trigger as a restarted n8n (or another n8n process) runs it: the node's
 * module loaded afresh, so nothing it kept in memory survives; only the saved
 * static data and the workflow id carry over.
 */
export async function createTriggerInNewProcess(options: Omit<TriggerOptions, 'nodeType'> & { workflowId: string; savedStaticData: string }) {
	vi.resetModules();
	const fresh = await import('../../nodes/JobSignalsTrigger/JobSignalsTrigger.node');
	return harness({ ...options, nodeType: new fresh.JobSignalsTrigger() });
}
