/**
 * The trigger's exactly-once cases, run by one test file per deployment mode.
 * Every repeat really reaches n8n (sent straight to a webhook process, or
 * spoiled by the front only after n8n accepted it), and executions are counted
 * from n8n's REST API. Two triggers run side by side: Manual registration
 * (its URL given to the service by the test, as a user pastes it into the web
 * app) and Automatic registration (it registers itself when published).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'flatted';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/n8n/config.mts';
import { CREDENTIAL, DEMO_TOKEN } from './real-n8n';
import { executionsOf, executionsPerId, startDeployment, type Deployment, type Mode } from './deployment';

const ALL_EVENTS = ['job_created', 'job_updated', 'job_deleted', 'signal'];

interface TriggerWorkflow {
	id: string;
	webhookId: string;
	registration: 'manual' | 'automatic';
}

const TRIGGERS: TriggerWorkflow[] = [
	{ id: 'e2eTriggerManual', webhookId: '7d1e9c8a-2b4f-4a6e-9d3c-5f8e7a6b4c21', registration: 'manual' },
	{ id: 'e2eTriggerAuto', webhookId: '2c5b7e10-6a3d-4f8e-b1c2-9e0d4a7f3b65', registration: 'automatic' },
];

/** The queue-mode complement: the trigger, then n8n's database-backed Remove Duplicates on webhook_event_id. */
const COMPLEMENT: TriggerWorkflow = { id: 'e2eTriggerDedupe', webhookId: '9a4e2d71-3c8b-4e5f-a6d0-1b7c9e2f4a38', registration: 'manual' };

function triggerNode(trigger: TriggerWorkflow) {
	return {
		id: `${trigger.id}-trigger`,
		name: 'Job Signals Trigger',
		type: 'n8n-nodes-job-signals.jobSignalsTrigger',
		typeVersion: 1,
		position: [0, 0],
		webhookId: trigger.webhookId,
		parameters: { registration: trigger.registration, events: ALL_EVENTS },
		credentials: { jobSignalsApi: CREDENTIAL },
	};
}

function triggerWorkflow(trigger: TriggerWorkflow) {
	return { id: trigger.id, name: trigger.id, active: false, settings: { executionOrder: 'v1' }, nodes: [triggerNode(trigger)], connections: {}, pinData: {} };
}

/** The shipped example (examples/workflows/events-trigger-queue-mode.workflow.json), on this test's credential and ids. */
function complementWorkflow() {
	const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'workflows', 'events-trigger-queue-mode.workflow.json'), 'utf8')) as {
		nodes: { type: string; webhookId?: string; credentials?: object }[];
	};
	return {
		...example,
		id: COMPLEMENT.id,
		name: COMPLEMENT.id,
		nodes: example.nodes.map((node) =>
			node.type === 'n8n-nodes-job-signals.jobSignalsTrigger' ? { ...node, webhookId: COMPLEMENT.webhookId, credentials: { jobSignalsApi: CREDENTIAL } } : node,
		),
	};
}

function envelope(id: string) {
	return {
		webhook_event_id: id,
		webhook_id: 'whk_e2e',
		organization_id: 'org_e2e',
		event_type: 'job_created',
		event_data: { job_id: `job-${id}`, title: 'E2E job' },
		created_at: 1_760_000_000,
		updated_at: 1_760_000_000,
	};
}

/** One delivery straight to a webhook process; n8n's answer must be a 200. */
async function deliver(base: string, trigger: TriggerWorkflow, id: string): Promise<void> {
	const response = await fetch(`${base}webhook/${trigger.webhookId}/webhook`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(envelope(id)),
	});
	const text = await response.text();
	if (response.status !== 200) throw new Error(`delivery of ${id} to ${base}: ${response.status} ${text}`);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The webhook_event_ids of the items a node output in an execution (n8n stores run data flatted). */
function idsOutputBy(execution: { data: string }, node: string): string[] {
	const run = parse(execution.data) as { resultData: { runData: Record<string, { data?: { main: ({ json: { webhook_event_id?: string } }[] | null)[] } }[]> } };
	return (run.resultData.runData[node] ?? []).flatMap((task) => (task.data?.main[0] ?? []).map((item) => String(item.json.webhook_event_id)));
}

export function describeExactlyOnce(mode: Mode): void {
	let deployment: Deployment;
	/** Ids of this run, so no case can match another run's data. */
	const run = randomUUID().slice(0, 8);
	const id = (name: string) => `e2e-${run}-${name}`;
	const base = (i: number) => deployment.webhookBases[i % deployment.webhookBases.length];
	const sendBoth = (i: number, name: string) => Promise.all(TRIGGERS.map((t) => deliver(base(i), t, id(name))));

	async function countPerId(trigger: TriggerWorkflow, names: string[]) {
		const executions = await executionsOf(deployment, trigger.id);
		expect(executions.filter((e) => e.status !== 'success')).toEqual([]);
		return { total: executions.length, perId: executionsPerId(executions, names.map(id)) };
	}

	beforeAll(async () => {
		// Time scale 1: the service's real backoff (1, 2, 4 s) and 5 s timeout.
		const paths = [...TRIGGERS, COMPLEMENT].map((t) => `webhook/${t.webhookId}/webhook`);
		deployment = await startDeployment(mode, ['--jobs', '2000', '--signals', '2000', '--sources', '60', '--rate-limit', '0'], paths, async (n8n) => {
			await n8n.importWorkflows([...TRIGGERS.map(triggerWorkflow), complementWorkflow()]);
			for (const trigger of [...TRIGGERS, COMPLEMENT]) await n8n.cli(['publish:workflow', `--id=${trigger.id}`]);
		});
	});

	afterAll(async () => {
		await deployment?.close();
	});

	describe(`the trigger in a real n8n, ${mode} mode`, () => {
		it('A, B, B, A, C one second apart start 3 executions per trigger', async () => {
			const names = ['A', 'B', 'B', 'A', 'C'];
			for (const [i, name] of names.entries()) {
				await sendBoth(i, name);
				await pause(1000);
			}
			for (const trigger of TRIGGERS) {
				expect(await countPerId(trigger, ['A', 'B', 'C'])).toEqual({ total: 3, perId: { [id('A')]: 1, [id('B')]: 1, [id('C')]: 1 } });
			}
		});

		it('50 distinct ids, then the same 50 again, start 50 executions', async () => {
			const names = Array.from({ length: 50 }, (_, i) => `D${i}`);
			for (const [i, name] of names.entries()) await sendBoth(i, name);
			// Each repeat goes to another webhook process than its first delivery where there are several.
			for (const [i, name] of names.entries()) await sendBoth(i + 1, name);
			for (const trigger of TRIGGERS) {
				const { total, perId } = await countPerId(trigger, names);
				expect(total).toBe(53);
				expect(Object.values(perId)).toEqual(names.map(() => 1));
			}
		});

		it('two simultaneous deliveries of one new id to one process start exactly 1 execution', async () => {
			await Promise.all([sendBoth(0, 'same-instant'), sendBoth(0, 'same-instant')]);
			for (const trigger of TRIGGERS) {
				expect((await countPerId(trigger, ['same-instant'])).perId).toEqual({ [id('same-instant')]: 1 });
			}
		});

		it('after all of n8n is stopped and started again, A and C start nothing new', async () => {
			await deployment.restart();
			await sendBoth(0, 'A');
			await sendBoth(1, 'C');
			await sendBoth(0, 'after-restart');
			for (const trigger of TRIGGERS) {
				const { total, perId } = await countPerId(trigger, ['A', 'C', 'after-restart']);
				expect(total).toBe(55);
				expect(perId).toEqual({ [id('A')]: 1, [id('C')]: 1, [id('after-restart')]: 1 });
			}
		});

		it('the service\'s deliveries, with failures after n8n accepted them, start one execution per event', async () => {
			const manual = TRIGGERS.find((t) => t.registration === 'manual')!;
			const automatic = TRIGGERS.find((t) => t.registration === 'automatic')!;
			const appApi = (path: string, init: RequestInit = {}) =>
				fetch(`${deployment.n8n.mock.appUrl}${path}`, { ...init, headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' } });
			// The automatic trigger registered itself when published; the manual one is registered as a user would.
			const urls = [manual, automatic].map((t) => `${deployment.front.url}webhook/${t.webhookId}/webhook`);
			const created = await appApi('/api/webhooks', { method: 'POST', body: JSON.stringify({ url: urls[0], event_types: ALL_EVENTS }) });
			expect(created.status).toBeLessThan(300);
			const registered = (await (await appApi('/api/webhooks')).json()) as { data: { url: string }[] };
			expect(registered.data.map((w) => w.url).sort()).toEqual([...urls].sort());

			// Of the events in arrival order, the first attempt of every third is answered 500 after n8n took it,
			// and of every third n8n's answer is held past the service's 5 s timeout.
			let distinct = 0;
			const spoilOf = new Map<string, number>();
			deployment.front.setSpoiler((eventId, attempt) => {
				if (!spoilOf.has(eventId)) spoilOf.set(eventId, distinct++ % 3);
				if (attempt > 1) return 'none';
				const kind = spoilOf.get(eventId);
				return kind === 0 ? 'fail-after-accept' : kind === 1 ? { holdMs: 6_500 } : 'none';
			});
			let sent = 0;
			for (let cycle = 0; cycle < 2; cycle++) {
				const response = await fetch(`${deployment.n8n.mock.appUrl}/__mock/process`, { method: 'POST' });
				const { events } = (await response.json()) as { events: { account_id: string }[] };
				sent += events.filter((e) => e.account_id === 'acc_demo').length;
			}
			expect(sent).toBeGreaterThan(5);

			type Delivery = { webhook_event_id: string; outcome: string; url: string };
			const deadline = Date.now() + 240_000;
			let deliveries: Delivery[] = [];
			while (Date.now() < deadline) {
				({ data: deliveries } = (await (await fetch(`${deployment.n8n.mock.appUrl}/__mock/deliveries`)).json()) as { data: Delivery[] });
				if (deliveries.filter((d) => d.outcome === 'delivered' || d.outcome === 'failed').length >= sent * urls.length) break;
				await pause(1000);
			}
			// The service sends each registered URL its own envelope, with its own webhook_event_id.
			for (const [i, trigger] of [manual, automatic].entries()) {
				const url = urls[i];
				const path = new URL(url).pathname;
				const toUrl = deliveries.filter((d) => d.url === url);
				const eventIds = [...new Set(toUrl.map((d) => d.webhook_event_id))];
				expect(eventIds).toHaveLength(sent);
				expect(toUrl.filter((d) => d.outcome === 'delivered').map((d) => d.webhook_event_id).sort()).toEqual([...eventIds].sort());
				// The repeats really reached n8n: each spoiled first attempt was followed by a second.
				const spoiled = eventIds.filter((e) => spoilOf.get(e) !== 2);
				expect(spoiled.length).toBeGreaterThan(2);
				expect(spoiled.filter((e) => (deployment.front.attempts.get(`${path} ${e}`) ?? 0) < 2)).toEqual([]);
				const executions = await executionsOf(deployment, trigger.id);
				expect(Object.values(executionsPerId(executions, eventIds))).toEqual(eventIds.map(() => 1));
			}
		});

		if (mode === 'queue') {
			it('two deliveries of one id at the same instant to two webhook processes: measured; Remove Duplicates after the trigger passes each once', async () => {
				const names = Array.from({ length: 20 }, (_, i) => `cross-${i}`);
				for (const name of names) {
					await Promise.all([0, 1].flatMap((i) => [...TRIGGERS, COMPLEMENT].map((t) => deliver(base(i), t, id(name)))));
				}
				for (const trigger of TRIGGERS) {
					const { perId } = await countPerId(trigger, names);
					const counts = Object.values(perId);
					console.log(
						`[measured] ${trigger.id}: ${counts.reduce((a, b) => a + b, 0)} executions for ${names.length} ids each delivered to both webhook processes at once (${counts.filter((c) => c > 1).length} ids started twice)`,
					);
					expect(counts.every((c) => c === 1 || c === 2)).toBe(true);
				}
				const complement = await executionsOf(deployment, COMPLEMENT.id);
				const passed = complement.flatMap((e) => idsOutputBy(e, 'Passed'));
				console.log(`[measured] ${COMPLEMENT.id}: ${complement.length} executions, ${passed.length} items past Remove Duplicates for ${names.length} ids`);
				expect(passed.sort()).toEqual(names.map(id).sort());
			});
		}
	});
}
