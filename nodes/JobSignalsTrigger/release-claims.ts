/**
 * Deregistering (webhookMethods.default.delete: n8n runs it when the workflow is deactivated, deleted or updated) ends
 * the trigger's in-process window (process-window.ts) without weakening exactly-once: first every id this process
 * claimed goes into the persisted window, which n8n saves right after deregistering, so a re-activation still knows
 * them; then the window is released.
 *
 * A test listener ("Listen for test event") is deregistered the same way, with the same mode, on its own copy of the
 * static data, while the production trigger of the same workflow and node may be active: it releases nothing. Its
 * activation (checkExists, mode manual) marks that copy.
 */
import type { IHookFunctions } from 'n8n-workflow';
import { recordInPersistedWindow } from './dedupe-window';
import { claimedInProcess, releaseInProcess, triggerKey } from './process-window';

const TEST_LISTENER = 'testListener';

/** On activation: a test listener's static data is marked as such. */
export function markTestListener(context: IHookFunctions): void {
	if (context.getMode() === 'manual') context.getWorkflowStaticData('node')[TEST_LISTENER] = 1;
}

export function releaseClaims(context: IHookFunctions): void {
	const staticData = context.getWorkflowStaticData('node');
	if (staticData[TEST_LISTENER] === 1) return;
	const key = triggerKey(context.getWorkflow().id, context.getNode().id);
	recordInPersistedWindow(staticData, claimedInProcess(key));
	releaseInProcess(key);
}
