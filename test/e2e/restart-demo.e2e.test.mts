/**
 * The restart demo (`npm start` twice): a published trigger with Automatic
 * registration keeps receiving events after n8n AND the mock are stopped and
 * started again on the same folders. n8n does not register its webhooks again
 * when it starts (its database still lists them), so the registration must
 * survive in the mock's state folder. Executions are counted from n8n's REST API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, triggerWorkflow, type TriggerWorkflow } from '../../harness/n8n/real-n8n.mts';
import { executionsOf, startDeployment, type Deployment } from '../../harness/n8n/deployment.mts';

const TRIGGER: TriggerWorkflow = { id: 'e2eRestartDemo', webhookId: '5e1f3a7c-9b2d-4c6e-8f0a-1d3b5c7e9f21', registration: 'automatic' };
const PATH = `webhook/${TRIGGER.webhookId}/webhook`;
const workflow = triggerWorkflow(TRIGGER);

interface Delivery {
	webhook_event_id: string;
	outcome: string;
}

describe('restart demo: n8n and the mock stopped and started again on the same folders', () => {
	let deployment: Deployment;
	const stateDir = mkdtempSync(join(tmpdir(), 'job-signals-state-'));
	const appUrl = () => deployment.n8n.mock.appUrl;
	const settings = async () =>
		((await (await fetch(`${appUrl()}/api/webhooks`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } })).json()) as { data: { url: string }[] }).data;

	beforeAll(async () => {
		const flags = ['--state-dir', stateDir, '--jobs', '2000', '--signals', '2000', '--sources', '60', '--rate-limit', '0'];
		deployment = await startDeployment('regular', flags, [PATH], async (n8n) => {
			await n8n.importWorkflows([workflow]);
			await n8n.publish(TRIGGER.id);
		});
	});
	afterAll(async () => {
		await deployment?.close();
		rmSync(stateDir, { recursive: true, force: true });
	});

	it('a cycle after the restart reaches the trigger registered before it', { timeout: 600_000 }, async () => {
		const registered = await settings();
		expect(registered.map((s) => s.url)).toEqual([`${deployment.front.url.replace(/\/$/, '')}/${PATH}`]);
		const firstPid = deployment.n8n.mock.child.pid;

		await deployment.restart(() => deployment.n8n.restartMock());
		expect(deployment.n8n.mock.child.pid).not.toBe(firstPid);
		expect(await settings()).toEqual(registered);

		// Three new jobs: every source is in the demo account's collections, so each is one event to the trigger.
		const cycle = await fetch(`${appUrl()}/__mock/process`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ created: 3, updated: 0, deleted: 0, signals: 0 }) });
		const { events } = (await cycle.json()) as { events: { account_id: string }[] };
		expect(events.filter((e) => e.account_id === 'acc_demo')).toHaveLength(3);

		// The mock logs each attempt; all three delivered means n8n answered 200 to each.
		const deadline = Date.now() + 120_000;
		let delivered: Delivery[] = [];
		while (delivered.length < 3 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 1000));
			const log = (await (await fetch(`${appUrl()}/__mock/deliveries`)).json()) as { data: Delivery[] };
			delivered = log.data.filter((d) => d.outcome === 'delivered');
		}
		expect(delivered, deployment.logs()).toHaveLength(3);
		const executions = await executionsOf(deployment, TRIGGER.id);
		expect(executions.filter((e) => e.status === 'success')).toHaveLength(3);
		for (const { webhook_event_id } of delivered) expect(executions.filter((e) => e.data.includes(`"${webhook_event_id}"`))).toHaveLength(1);
		console.log(`[restart demo] after restarting n8n and the mock: 3 events delivered, ${executions.length} executions of the trigger`);
	});
});
