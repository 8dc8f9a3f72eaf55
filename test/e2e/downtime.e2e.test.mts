/**
 * No new job or signal lost across n8n downtime (docs/guarantees.md, "No event lost across downtime"): the
 * setup docs/trigger.md recommends, in a real `n8n start` (regular mode, SQLite): one workflow with the Job
 * Signals Trigger (Job Created and Signal, Automatic registration) and the Poll Trigger for new jobs and new
 * signals of each group, all connected to Deduplication → Keep New Jobs and Signals, then a step.
 *
 * Two deployments run side by side, each with its own mock: one n8n is killed with `kill -9` while the service
 * is delivering a cycle's events, the other stopped gracefully; both stay down DOWN_MS while their mock keeps
 * running cycles, then start again. Counted per job id and signal id across every execution (n8n's
 * REST API): what the webhook trigger alone passed on, and what came out of Keep New. Cycles delete no job: a
 * job created and deleted while n8n is down cannot be polled (the docs say so), and is left out here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'flatted';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../harness/n8n/config.mts';
import { CREDENTIAL, type RealN8n } from '../../harness/n8n/real-n8n.mts';
import { executionsOf, startDeployment, type Deployment } from '../../harness/n8n/deployment.mts';
import { logPhase, MOCK_FLAGS, pause, pollTimes, waitFor } from './poll-e2e.mts';

const WEBHOOK_ID = '5e7c2a91-4d3b-4f6a-8e1c-7b9d0a2f6c34';
const WEBHOOK_NODE = 'Job Signals Trigger';
const KEEP_NEW = 'Keep New';
/**
 * How long n8n stays down: longer than the service's retries (3, 1 s, 2 s and 4 s apart: with n8n's port closed each
 * attempt fails at once, and even 4 attempts of the 5 s timeout end within 27 s), so deliveries fail for good while it
 * is down. Longer proves nothing more: the service disables no webhook after failures, and n8n's default scheduler runs
 * no poll time it missed (its triggers poll at activation, then on their times).
 */
const DOWN_MS = 30_000;
/** A cycle every 10 s while n8n is down (the mock delivers one event a second; a cycle makes about 8 for this account). */
const CYCLE_EVERY_MS = 10_000;
const CYCLE_BODY = JSON.stringify({ deleted: 0 });

/** The Poll Triggers' lists (their polls counted in the mock's request journal). */
const POLLED_PATHS = ['/v2/jobs', '/v2/signals/problems', '/v2/signals/changes'];

interface ExampleNode {
	type: string;
	webhookId?: string;
	parameters: Record<string, unknown>;
	credentials?: object;
}

/** The shipped example (examples/workflows/every-new-job-and-signal.workflow.json) on this test's credential, with a poll every POLL_EVERY_S seconds (poll-e2e.mts). */
const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'workflows', 'every-new-job-and-signal.workflow.json'), 'utf8')) as { id: string; nodes: ExampleNode[] };
const WORKFLOW = example.id;

function catchUpWorkflow() {
	let polls = 0;
	return {
		...example,
		nodes: example.nodes.map((node) => {
			if (node.credentials) node = { ...node, credentials: { jobSignalsApi: CREDENTIAL } };
			if (node.webhookId) node = { ...node, webhookId: WEBHOOK_ID };
			if (node.type === 'n8n-nodes-job-signals.jobSignalsPollTrigger') node = { ...node, parameters: { ...node.parameters, pollTimes: pollTimes(polls++) } };
			return node;
		}),
	};
}

interface CycleEvent {
	account_id: string;
	event_type: string;
	event_data: { job_id?: string; signal_id?: string };
}

interface Delivery {
	webhook_event_id: string;
	status: number | null;
	outcome: string;
}

/** One deployment with the catch-up workflow published, and the demo account's new jobs and signals as its mock made them. */
async function startCatchUp() {
	const began = Date.now();
	const deployment: Deployment = await startDeployment('regular', MOCK_FLAGS, [`webhook/${WEBHOOK_ID}/webhook`], async (n8n: RealN8n) => {
		await n8n.importWorkflows([catchUpWorkflow()]);
		await n8n.publish(WORKFLOW);
	});
	logPhase('n8n set up (package, workflow) and started', began);
	const mock = deployment.n8n.mock.appUrl;
	const expected: string[] = [];

	async function cycle(): Promise<void> {
		const response = await fetch(`${mock}/__mock/process`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CYCLE_BODY });
		const { events } = (await response.json()) as { events: CycleEvent[] };
		for (const event of events) {
			if (event.account_id !== 'acc_demo') continue;
			if (event.event_type === 'job_created') expected.push(`job:${event.event_data.job_id}`);
			if (event.event_type === 'signal') expected.push(`signal:${event.event_data.signal_id}`);
		}
	}

	const deliveries = async () => ((await (await fetch(`${mock}/__mock/deliveries`)).json()) as { data: Delivery[] }).data;

	/** Cycles every CYCLE_EVERY_MS for `ms`, starting with one. */
	async function cyclesFor(ms: number): Promise<void> {
		const end = Date.now() + ms;
		while (Date.now() < end) {
			await cycle();
			await pause(Math.min(CYCLE_EVERY_MS, Math.max(0, end - Date.now())));
		}
	}

	/** Per key (`job:<id>`, `signal:<id>`): the items the webhook trigger and Keep New passed on in successful executions. */
	async function counted() {
		const executions = await executionsOf(deployment, WORKFLOW);
		const byWebhook: string[] = [];
		const kept: string[] = [];
		const crashed: string[] = [];
		for (const execution of executions) {
			if (execution.status !== 'success') {
				crashed.push(execution.status);
				continue;
			}
			const run = parse(execution.data) as { resultData: { runData: Record<string, { data?: { main: ({ json: Record<string, unknown> }[] | null)[] } }[]> } };
			const keys = (node: string) =>
				(run.resultData.runData[node] ?? []).flatMap((task) => (task.data?.main[0] ?? []).map((item) => (item.json.job_id ? `job:${String(item.json.job_id)}` : `signal:${String(item.json.signal_id)}`)));
			byWebhook.push(...keys(WEBHOOK_NODE));
			kept.push(...keys(KEEP_NEW));
		}
		const figures = (keys: string[]) => ({
			passed: keys.length,
			missing: expected.filter((key) => !keys.includes(key)),
			twice: [...new Set(keys.filter((key, i) => keys.indexOf(key) !== i))],
			unexpected: [...new Set(keys.filter((key) => !expected.includes(key)))],
		});
		return { events: expected.length, executions: executions.length, notSuccessful: crashed, webhookAlone: figures(byWebhook), keepNew: figures(kept) };
	}

	/** Until Keep New passed on every expected key (or the timeout); then the figures. */
	async function settle(timeoutMs = 150_000) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const result = await counted();
			if (result.keepNew.missing.length === 0 || Date.now() > deadline) return result;
			await pause(3000);
		}
	}

	// A trigger records where its list stands on its first poll; cycles start after each has polled twice.
	const since = Date.now();
	for (const path of POLLED_PATHS) {
		await waitFor(`the first two polls of ${path}`, async () => {
			const { data } = (await (await fetch(`${mock}/__mock/requests?path=${encodeURIComponent(path)}&method=GET`)).json()) as { data: { path: string; status: number }[] };
			return data.filter((call) => call.path === path && call.status === 200).length >= 2;
		}, undefined, 250);
	}
	logPhase('the first two polls', since);
	return { deployment, cycle, cyclesFor, deliveries, settle, close: () => deployment.close() };
}

type CatchUp = Awaited<ReturnType<typeof startCatchUp>>;

/** Fails with what a reader needs when Keep New did not pass each event once. */
function expectEachOnce(figures: Awaited<ReturnType<CatchUp['settle']>>): void {
	expect({ missing: figures.keepNew.missing, twice: figures.keepNew.twice, unexpected: figures.keepNew.unexpected }).toEqual({ missing: [], twice: [], unexpected: [] });
}

const summary = (figures: Awaited<ReturnType<CatchUp['settle']>>) => ({
	events: figures.events,
	executions: figures.executions,
	notSuccessful: figures.notSuccessful,
	webhookAlone: { passed: figures.webhookAlone.passed, missing: figures.webhookAlone.missing.length, twice: figures.webhookAlone.twice.length },
	keepNew: { passed: figures.keepNew.passed, missing: figures.keepNew.missing.length, twice: figures.keepNew.twice.length },
});

describe('no new job or signal lost across n8n downtime: webhook trigger and Poll Trigger into Keep New Jobs and Signals (regular mode)', () => {
	let killed: CatchUp;
	let stopped: CatchUp;

	beforeAll(async () => {
		[killed, stopped] = await Promise.all([startCatchUp(), startCatchUp()]);
	});

	afterAll(async () => {
		await Promise.all([killed?.close(), stopped?.close()]);
	});

	it('kill -9 mid-delivery and down past the service\'s retries, and a graceful stop and down as long, while cycles go on: each new job and signal once', async () => {
		// kill -9: once the cycle's first deliveries were answered and more are still to go.
		const crash = async () => {
			await killed.cycle();
			await killed.cycle();
			for (let waited = 0; ; waited += 250) {
				const answered = (await killed.deliveries()).filter((d) => d.status === 200).length;
				if (answered >= 3) break;
				if (waited > 60_000) throw new Error('the service answered no delivery of the first cycles within 60 s');
				await pause(250);
			}
			const before = (await killed.deliveries()).length;
			const since = Date.now();
			await killed.deployment.crash(() => killed.cyclesFor(DOWN_MS));
			logPhase(`n8n killed, ${DOWN_MS / 1000} s down and started again`, since);
			return before;
		};
		const stop = async () => {
			await stopped.cycle();
			await stopped.cycle();
			await pause(5000);
			const since = Date.now();
			await stopped.deployment.restart(() => stopped.cyclesFor(DOWN_MS));
			logPhase(`n8n stopped, ${DOWN_MS / 1000} s down and started again`, since);
		};
		const [deliveredBeforeKill] = await Promise.all([crash(), stop()]);
		// One more cycle each, delivered by webhooks after the restart.
		await Promise.all([killed.cycle(), stopped.cycle()]);
		const settling = Date.now();
		const [afterKill, afterStop] = await Promise.all([killed.settle(), stopped.settle()]);
		logPhase('until Keep New passed on every event', settling);
		const lostDeliveries = (catchUp: CatchUp) => catchUp.deliveries().then((all) => all.filter((d) => d.outcome === 'failed').length);
		console.log(`[measured] downtime, kill -9 mid-delivery (${deliveredBeforeKill} delivery attempts before the kill), ${DOWN_MS / 1000} s down: ${JSON.stringify(summary(afterKill))}; deliveries that failed for good: ${await lostDeliveries(killed)}`);
		console.log(`[measured] downtime, graceful stop, ${DOWN_MS / 1000} s down: ${JSON.stringify(summary(afterStop))}; deliveries that failed for good: ${await lostDeliveries(stopped)}`);
		// The webhooks alone lost what the service sent while n8n was down: the test really made a gap.
		expect(afterKill.webhookAlone.missing.length).toBeGreaterThan(0);
		expect(afterStop.webhookAlone.missing.length).toBeGreaterThan(0);
		expectEachOnce(afterKill);
		expectEachOnce(afterStop);
	});
});
