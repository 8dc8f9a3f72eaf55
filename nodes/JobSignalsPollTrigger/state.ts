/**
 * Where the poll state lives: the node's static data, which n8n 2.40 hands a
 * poll as a staged copy (PollContext's resolveNodeStaticData) and commits only
 * after the poll's items were handed off, or after a poll that emitted nothing.
 * A poll that throws commits nothing. The state is replaced only once a poll
 * has succeeded, so an engine without staging also keeps the last good state.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import type { PollState } from './position';

const FIELD = 'pollState';

/** The saved state, if it belongs to these parameters (`key`); otherwise the trigger starts afresh. */
export function readState(context: IPollFunctions, key: string): PollState | undefined {
	const saved = context.getWorkflowStaticData('node')[FIELD] as PollState | undefined;
	if (typeof saved !== 'object' || saved === null || saved.key !== key || !Array.isArray(saved.backlog)) return undefined;
	return saved;
}

export function writeState(context: IPollFunctions, state: PollState): void {
	// A plain JSON copy: static data is saved as JSON, and nothing of the poll's items may stay referenced.
	context.getWorkflowStaticData('node')[FIELD] = JSON.parse(JSON.stringify(state)) as IDataObject;
}
