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
import { REPO_ROOT } from '../../harness/n8n/config.mts';
import { ALL_EVENTS, CREDENTIAL, DEMO_TOKEN, jobCreatedEnvelope, triggerWorkflow, type TriggerWorkflow } from '../../harness/n8n/real-n8n.ts';
import { executionsOf, executionsPerId, startDeployment, type Deployment, type Mode } from '../../harness/n8n/deployment.ts';
import { processForPath } from '../../harness/n8n/webhook-front.ts';

const TRIGGERS: TriggerWorkflow[] = [
	{ id: 'e2eTriggerManual', webhookId: '7d1e9c8a-2b4f-4a6e-9d3c-5f8e7a6b4c21', registration: 'manual' },
	{ id: 'e2eTriggerAuto', webhookId: '2c5b7e10-6a3d-4f8e-b1c2-9e0d4a7f3b65', registration: 'automatic' },
];

/** The queue-mode complement: the trigger, then n8n's database-backed Remove Duplicates on webhook_event_id. */
const COMPLEMENT: TriggerWorkflow = { id: 'e2eTriggerDedupe', webhookId: '9a4e2d71-3c8b-4e5f-a6d0-1b7c9e2f4a38', registration: 'manual' };

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

/** One delivery straight to a webhook process; n8n's answer must be a 200, whose text is returned. */
async function deliver(base: string, trigger: TriggerWorkflow, id: string): Promise<string> {
	const response = await fetch(`${base}webhook/${trigger.webhookId}/webhook`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(jobCreatedEnvelope(id)),
	});
	const text = await response.text();
	if (response.status !== 200) throw new Error(`delivery of ${id} to ${base}: ${response.status} ${text}`);
	return text;
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
	const ALL = [...TRIGGERS, COMPLEMENT];
	const pathOf = (t: TriggerWorkflow) => `/webhook/${t.webhookId}/webhook`;
	/** The process the front routes the trigger's path to. */
	const home = (t: TriggerWorkflow) => deployment.webhookBases[processForPath(pathOf(t), deployment.webhookBases.length)];
	/** The other webhook process (queue mode). */
	const away = (t: TriggerWorkflow) => deployment.webhookBases[(processForPath(pathOf(t), deployment.webhookBases.length) + 1) % deployment.webhookBases.length];
	const sendHome = (name: string) => Promise.all(ALL.map((t) => deliver(home(t), t, id(name))));
	const sendAway = (name: string) => Promise.all(ALL.map((t) => deliver(away(t), t, id(name))));

	async function countPerId(trigger: TriggerWorkflow, names: string[]) {
		const executions = await executionsOf(deployment, trigger.id);
		expect(executions.filter((e) => e.status !== 'success')).toEqual([]);
		return { total: executions.length, perId: executionsPerId(executions, names.map(id)) };
	}

	/** Each id's count of items that passed the complement's Remove Duplicates. */
	async function passedPerId(names: string[]) {
		const passed = (await executionsOf(deployment, COMPLEMENT.id)).flatMap((e) => idsOutputBy(e, 'Passed'));
		return Object.fromEntries(names.map((name) => [id(name), passed.filter((p) => p === id(name)).length]));
	}

	const ones = (names: string[]) => Object.fromEntries(names.map((name) => [id(name), 1]));

	beforeAll(async () => {
		// Time scale 1: the service's real backoff (1, 2, 4 s) and 5 s timeout.
		const paths = ALL.map((t) => pathOf(t).slice(1));
		deployment = await startDeployment(mode, ['--jobs', '2000', '--signals', '2000', '--sources', '60', '--rate-limit', '0'], paths, async (n8n) => {
			await n8n.importWorkflows([...TRIGGERS.map(triggerWorkflow), complementWorkflow()]);
			for (const trigger of ALL) await n8n.publish(trigger.id);
		});
	});

	afterAll(async () => {
		await deployment?.close();
	});

	describe(`the trigger in a real n8n, ${mode} mode`, () => {
		it('A, B, B, A, C one second apart start 3 executions per trigger', async () => {
			const names = ['A', 'B', 'B', 'A', 'C'];
			const answers: string[][] = [];
			for (const name of names) {
				answers.push(await sendHome(name));
				await pause(1000);
			}
			// n8n answers with the node's own answer, for a started workflow too (the node's responseData '').
			expect(answers[0].map((a) => JSON.parse(a))).toEqual(ALL.map(() => ({ received: true, emitted: true })));
			expect(answers[2].map((a) => JSON.parse(a))).toEqual(ALL.map(() => ({ received: true, emitted: false, reason: 'duplicate webhook_event_id' })));
			for (const trigger of ALL) expect(await countPerId(trigger, ['A', 'B', 'C'])).toEqual({ total: 3, perId: ones(['A', 'B', 'C']) });
		});

		it('50 distinct ids, then the same 50 again, start 50 executions', async () => {
			const names = Array.from({ length: 50 }, (_, i) => `D${i}`);
			for (const name of names) await sendHome(name);
			for (const name of names) await sendHome(name);
			for (const trigger of ALL) expect(await countPerId(trigger, names)).toEqual({ total: 53, perId: ones(names) });
		});

		it('two simultaneous deliveries of one new id start exactly 1 execution', async () => {
			await Promise.all([sendHome('same-instant'), sendHome('same-instant')]);
			for (const trigger of ALL) expect((await countPerId(trigger, ['same-instant'])).perId).toEqual(ones(['same-instant']));
		});

		it('after every n8n process is stopped and started again, A and C are recognised', async () => {
			await deployment.restart();
			await sendHome('A');
			await sendHome('C');
			await sendHome('after-restart');
			if (mode === 'regular') {
				for (const trigger of ALL) expect(await countPerId(trigger, ['A', 'C', 'after-restart'])).toEqual({ total: 55, perId: ones(['A', 'C', 'after-restart']) });
			} else {
				// Queue-mode workers cannot save the window (README): the trigger starts them again, Remove Duplicates stops them.
				const { perId } = await countPerId(TRIGGERS[0], ['A', 'C']);
				console.log(`[measured] queue mode, after a restart: A and C started ${perId[id('A')]} and ${perId[id('C')]} executions of the trigger alone`);
				expect(await passedPerId(['A', 'C', 'after-restart'])).toEqual(ones(['A', 'C', 'after-restart']));
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
			expect(registered.data.map((w) => w.url).sort(), deployment.logs()).toEqual([...urls].sort());

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
			console.log(`[measured] ${mode} mode: 2 processing cycles sent ${sent} events to each of the ${urls.length} registered URLs`);

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

		it('keeps the rest of the workflow\'s static data (automatic registration\'s webhookId) through every delivery', async () => {
			const automatic = TRIGGERS.find((t) => t.registration === 'automatic')!;
			const response = await deployment.rest(`/rest/workflows/${automatic.id}`);
			const { data } = (await response.json()) as { data: { staticData?: Record<string, Record<string, unknown>> } };
			expect(data.staticData?.['node:Job Signals Trigger'], deployment.logs()).toMatchObject({ webhookId: expect.any(String), dedupeWindow: 1 });
		});

		if (mode === 'queue') {
			it('a repeat at the other webhook process after the first execution finished: measured; Remove Duplicates after the trigger loses no event', async () => {
				const names = Array.from({ length: 20 }, (_, i) => `cross-${i}`);
				for (const name of names) await sendHome(name);
				expect(await passedPerId(names)).toEqual(ones(names));
				await pause(1000);
				for (const name of names) await sendAway(name);
				const started = Object.values((await countPerId(TRIGGERS[0], names)).perId).reduce((a, b) => a + b, 0);
				const passed = Object.values(await passedPerId(names));
				// Not each exactly once: n8n 2.40.7 keeps Remove Duplicates' history in one database row that each execution
				// reads and then writes whole (DeduplicationHelper.handleHashedItems), so executions that overlap on two
				// workers, of any ids, can overwrite each other's records, and a repeat of a lost record passes again
				// (seen: 1 of 20 ids in each of 4 runs on 2026-11-23). README, "Exactly once", says so.
				console.log(
					`[measured] queue mode, each of ${names.length} ids sent to the other webhook process after its first execution finished: ${started} executions of the trigger alone; ${passed.reduce((a, b) => a + b, 0)} items past Remove Duplicates`,
				);
				expect(passed.every((count) => count >= 1)).toBe(true);
			});

			it('two deliveries of one id at the same instant at the two webhook processes: measured', async () => {
				const names = Array.from({ length: 20 }, (_, i) => `instant-${i}`);
				for (const name of names) await Promise.all([sendHome(name), sendAway(name)]);
				const started = Object.values((await countPerId(TRIGGERS[0], names)).perId).reduce((a, b) => a + b, 0);
				const passed = Object.values(await passedPerId(names));
				console.log(
					`[measured] queue mode, ${names.length} ids each sent to both webhook processes at the same instant: ${started} executions of the trigger alone; ${passed.reduce((a, b) => a + b, 0)} items past Remove Duplicates`,
				);
				expect(passed.every((count) => count >= 1)).toBe(true);
			});
		}
	});
}
