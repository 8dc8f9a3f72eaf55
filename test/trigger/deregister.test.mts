// Deregistering the trigger (webhookMethods.default.delete) drops its in-process window without losing an id:
// through n8n-core's HookContext and WebhookContext (see harness.mts), and the window's own rules.
import { describe, expect, it } from 'vitest';
import { eventKey } from '../../nodes/JobSignalsTrigger/dedupe-window';
import { claimedInProcess, claimInProcess, storedInProcess, releaseInProcess, triggerKey } from '../../nodes/JobSignalsTrigger/process-window';
import { envelope } from '../../harness/in-process/trigger-fixtures.mts';
import { createTrigger, createTriggerInNewProcess } from './trigger-under-test.mts';

const NODE_ID = 'trigger-node';
const DUPLICATE = { received: true, emitted: false, reason: 'duplicate webhook_event_id' };

describe('trigger: deregistering releases the in-process window', () => {
	it('delete drops the window; after re-activation the persisted window still refuses every repeat', async () => {
		const trigger = createTrigger();
		const key = triggerKey(trigger.workflowId, NODE_ID);
		const sent = [envelope('job_created'), envelope('job_updated')];
		for (const body of sent) expect((await trigger.deliver({ body })).body).toEqual({ received: true, emitted: true });
		expect(claimedInProcess(key)).toEqual(sent.map((e) => eventKey(e.webhook_event_id)));
		expect(await trigger.hook('delete')).toBe(true);
		expect(claimedInProcess(key)).toEqual([]);
		await trigger.activate();
		for (const body of sent) expect((await trigger.deliver({ body })).body).toEqual(DUPLICATE);
		expect((await trigger.deliver({ body: envelope('signal') })).body).toEqual({ received: true, emitted: true });
	});

	it('an id claimed but not yet stored by its execution is persisted at delete and keeps the window until it is stored', async () => {
		const trigger = createTrigger();
		await trigger.activate();
		const key = triggerKey(trigger.workflowId, NODE_ID);
		// A delivery claimed in this process whose execution has not run yet.
		const inFlight = envelope('job_created');
		expect(claimInProcess(key, eventKey(inFlight.webhook_event_id))).toBe(true);
		await trigger.hook('delete');
		expect(trigger.staticData().seenEventKeys).toBe(`\n${eventKey(inFlight.webhook_event_id)}\n`);
		expect(claimedInProcess(key)).toEqual([eventKey(inFlight.webhook_event_id)]);
		// Re-activated in another process (or after a restart): the repeat is refused from the saved static data alone.
		const restarted = await createTriggerInNewProcess({ workflowId: trigger.workflowId, savedStaticData: trigger.savedStaticData() });
		expect((await restarted.deliver({ body: inFlight })).body).toEqual(DUPLICATE);
		storedInProcess(key, [eventKey(inFlight.webhook_event_id)]);
		expect(claimedInProcess(key)).toEqual([]);
	});

	it('a claim after the release (active again) keeps the window; releasing only waits for pending ids', () => {
		const key = triggerKey('workflow-release-rules', NODE_ID);
		claimInProcess(key, 'a');
		releaseInProcess(key);
		claimInProcess(key, 'b');
		storedInProcess(key, ['a', 'b']);
		expect(claimedInProcess(key)).toEqual(['a', 'b']);
		releaseInProcess(key);
		expect(claimedInProcess(key)).toEqual([]);
	});

	it('a test listener of the same workflow and node ("Listen for test event") releases nothing of the active trigger', async () => {
		const production = createTrigger();
		const key = triggerKey(production.workflowId, NODE_ID);
		const sent = envelope('job_created');
		await production.deliver({ body: sent });
		const listener = createTrigger({ workflowId: production.workflowId, mode: 'manual' });
		await listener.activate();
		await listener.hook('delete');
		expect(claimedInProcess(key)).toEqual([eventKey(sent.webhook_event_id)]);
		expect((await production.deliver({ body: sent })).body).toEqual(DUPLICATE);
	});
});
