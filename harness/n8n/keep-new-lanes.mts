/**
 * A published workflow for Keep New Jobs and Signals in a real n8n: one lane per case, each n8n's Webhook (answering
 * when the execution has ended) → Split Out (the body's `items`, one job or signal per item, as a trigger emits them)
 * → Keep New, whose record is its own. Used by test/e2e/keep-new.e2e.test.mts and bench/keep-new-n8n.mts; what Keep
 * New passed, and how long it took, is read from n8n's REST API.
 */
import { request as httpRequest } from 'node:http';
import { parse } from 'flatted';
import { listExecutions, type N8nInstance } from './deployment.mts';

export interface Lane {
	name: string;
	onError?: 'continueRegularOutput';
}

export const keepNewNode = (lane: string) => `Keep New ${lane}`;
const path = (lane: string) => `keep-new-${lane}`;

/** The webhook paths to wait for (startDeployment, useSharedN8n): a probe without items runs an execution in which Keep New does not run. */
export const lanePaths = (lanes: Lane[]) => lanes.map((lane) => `webhook/${path(lane.name)}`);

export function keepNewWorkflow(id: string, lanes: Lane[]) {
	const nodes = lanes.flatMap(({ name, onError }, index) => [
		{
			id: `in-${name}`,
			name: `In ${name}`,
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, index * 200],
			webhookId: path(name),
			parameters: { httpMethod: 'POST', path: path(name), responseMode: 'lastNode', responseData: 'noData', options: {} },
		},
		{ id: `split-${name}`, name: `Split ${name}`, type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [200, index * 200], parameters: { fieldToSplitOut: 'body.items', options: {} } },
		{
			id: `keep-${name}`,
			name: keepNewNode(name),
			type: 'n8n-nodes-job-signals.jobSignals',
			typeVersion: 3,
			position: [400, index * 200],
			parameters: { resource: 'deduplication', operation: 'keepNew' },
			...(onError ? { onError } : {}),
		},
	]);
	const connections = Object.fromEntries(
		lanes.flatMap(({ name }) => [
			[`In ${name}`, { main: [[{ node: `Split ${name}`, type: 'main', index: 0 }]] }],
			[`Split ${name}`, { main: [[{ node: keepNewNode(name), type: 'main', index: 0 }]] }],
		]),
	);
	return { id, name: `Keep New lanes ${id}`, active: false, settings: { executionOrder: 'v1' }, nodes, connections, pinData: {} };
}

export interface LaneRun {
	executionId: string;
	/** What Keep New passed on (its first output). */
	passed: Record<string, unknown>[];
	/** n8n's measure of Keep New's run, in ms (its `executionTime`). */
	keepNewMs: number;
	/** The execution's start to end, in ms, as n8n logged it. */
	executionMs: number;
}

/** The highest execution id of the workflow so far ('0' for none): `sendToLane` reads the execution after it. */
export async function latestExecution(deployment: N8nInstance, workflowId: string): Promise<string> {
	return String(Math.max(0, ...(await listExecutions(deployment, workflowId)).map((e) => Number(e.id))));
}

/**
 * Sends the items to the lane and reads the one execution after `afterId` once n8n has finished it. One send at a
 * time per workflow: any other execution after `afterId` is an error.
 */
export async function sendToLane(deployment: N8nInstance, workflowId: string, lane: string, items: object[], afterId: string): Promise<LaneRun> {
	const status = await post(`${deployment.webhookBases[0]}webhook/${path(lane)}`, JSON.stringify({ items }));
	if (status !== 200) throw new Error(`the webhook of lane ${lane} answered ${status}\n${deployment.logs()}`);
	const deadline = Date.now() + 60_000;
	for (;;) {
		const after = (await listExecutions(deployment, workflowId)).filter((e) => Number(e.id) > Number(afterId));
		if (after.length > 1) throw new Error(`more than one execution after ${afterId}: ${JSON.stringify(after)}`);
		const [execution] = after;
		if (execution && !['new', 'running', 'waiting'].includes(execution.status)) {
			if (execution.status !== 'success') throw new Error(`execution ${execution.id} of lane ${lane}: ${execution.status}`);
			return await readRun(deployment, execution.id, lane);
		}
		if (Date.now() > deadline) throw new Error(`no finished execution of lane ${lane} within 60 s: ${JSON.stringify(after)}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/**
 * A POST on a connection of its own: on a reused kept-alive connection the server had closed meanwhile, a send failed
 * here with "other side closed", which does not tell whether n8n took it, so it could not be sent again safely.
 */
function post(url: string, body: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const request = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
			response.resume();
			response.on('end', () => resolve(response.statusCode ?? 0));
			response.on('error', reject);
		});
		request.on('error', reject);
		request.end(body);
	});
}

interface TaskData {
	executionTime?: number;
	data?: { main: ({ json: Record<string, unknown> }[] | null)[] };
}

async function readRun(deployment: N8nInstance, executionId: string, lane: string): Promise<LaneRun> {
	const detail = (await (await deployment.rest(`/rest/executions/${executionId}`)).json()) as { data: { data: string; startedAt: string; stoppedAt: string } };
	const run = parse(detail.data.data) as { resultData: { runData: Record<string, TaskData[]> } };
	const task = run.resultData.runData[keepNewNode(lane)]?.[0];
	if (!task?.data) throw new Error(`Keep New of lane ${lane} did not run in execution ${executionId}`);
	return {
		executionId,
		passed: (task.data.main[0] ?? []).map((item) => item.json),
		keepNewMs: task.executionTime ?? Number.NaN,
		executionMs: Date.parse(detail.data.stoppedAt) - Date.parse(detail.data.startedAt),
	};
}
