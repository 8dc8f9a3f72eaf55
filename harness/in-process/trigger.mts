/**
 * Runs the trigger the way n8n 2.40.7 does, through n8n-core's real
 * WebhookContext, HookContext and WorkflowExecute on real n8n-workflow
 * Workflows, with these stand-ins for what the n8n server provides:
 * - static data lives as JSON (the database column). Each request loads it
 *   into a new Workflow. Like n8n's live-webhook path, nothing is saved after
 *   `webhook()`: a delivery that starts the workflow runs an execution whose
 *   Workflow reloads static data (WorkflowRunner.prepareNewExecution), and the
 *   static data is saved only when the execution's `workflowExecuteAfter`
 *   hook gets it as changed (hookFunctionsSave). After activation hooks n8n
 *   saves changed static data, and so does the harness;
 * - the node's module is loaded once per "process" (see trigger-under-test.mts),
 *   so a new process forgets what the node kept in memory;
 * - the HTTP answer follows n8n's webhook helper for responseMode onReceived:
 *   if the node answered itself (noWebhookResponse) that answer stands; with no
 *   workflow data, 200 with webhookResponse (or n8n's default message); with
 *   workflow data, 200 with what n8n 2.40.7's extractWebhookOnReceivedResponse
 *   picks from the webhook description's responseData (left out, it is the
 *   text "firstEntryJson");
 * - credentials come from a map; authentication adds the bearer header the
 *   credential's generic `authenticate` adds;
 * - the request's `ip` and `ips` are what n8n's express app gives a node: n8n
 *   sets express's `trust proxy` to N8N_PROXY_HOPS when it is above 0, and
 *   express (proxy-addr) then takes the sender's address from X-Forwarded-For,
 *   one entry from the right per trusted hop (see `clientAddress`).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type {
	INodeExecutionData,
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeParameters,
	INodeType,
	INodeTypes,
	IWebhookData,
	IWorkflowExecuteAdditionalData,
	Workflow as WorkflowType,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { useDeduplicationStore } from './deduplication.mts';
import { coreRuntime, workflowRuntime } from './runtime.mts';

const { createRunExecutionData, NodeHelpers, Workflow } = workflowRuntime;
const { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } = coreRuntime;

export const NODE_TYPE = 'n8n-nodes-job-signals.jobSignalsTrigger';
export const WEBHOOK_BASE_URL = 'http://n8n.test/webhook';
const NODE_NAME = 'Job Signals Trigger';

export interface Answer {
	status: number;
	body: unknown;
	/** Items the workflow would start with; undefined when it does not start. */
	emitted: IDataObject[] | undefined;
	/** The trigger node's output in the execution the delivery started (after its execute()); undefined when none started. */
	output?: IDataObject[];
}

export interface DeliveryRequest {
	body: unknown;
	headers?: IncomingHttpHeaders;
	rawBody?: Buffer;
	/** The parsed query string (express's `req.query`); default none. */
	query?: IDataObject;
	/** The connection's address (the last proxy's, behind one); default 127.0.0.1. */
	remoteAddress?: string;
}

export interface TriggerOptions {
	/** The trigger's class instance: the TypeScript source in tests, the built package in the benchmark. */
	nodeType: INodeType;
	parameters?: INodeParameters;
	/** Default: a new id per trigger, so triggers in one test process never share the node's memory. */
	workflowId?: string;
	/**
	 * Run executions as a queue-mode worker does: with static data that was not
	 * loaded (n8n's execution snapshot leaves it out), whatever the execution
	 * changed still saved over the workflow's static data.
	 */
	queueWorker?: boolean;
	/** Static data as saved by an earlier "process" (see `savedStaticData()`); default none. */
	savedStaticData?: string;
	credentials?: ICredentialDataDecryptedObject;
	mode?: WorkflowExecuteMode;
	/** The node's version; default 1 (the version the trigger's older tests were written for). */
	typeVersion?: number;
	/** n8n's N8N_PROXY_HOPS; default 0 (n8n's default: X-Forwarded-For is not trusted). */
	proxyHops?: number;
}

let workflowCount = 0;

export function createTrigger(options: TriggerOptions) {
	const { nodeType } = options;
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	// n8n stores a node with every default filled in; so does the harness.
	const parameters = NodeHelpers.getNodeParameters(
		nodeType.description.properties,
		options.parameters ?? {},
		true,
		false,
		{ typeVersion: options.typeVersion ?? 1 },
		nodeType.description,
	) as INode['parameters'];
	const node: INode = {
		id: 'trigger-node',
		name: NODE_NAME,
		type: NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		webhookId: 'e7f1c0de-0000-4000-8000-000000000001',
		parameters,
		...(options.credentials ? { credentials: { jobSignalsApi: { id: 'cred-1', name: 'Job Signals' } } } : {}),
	};
	let savedStaticData = options.savedStaticData ?? '{}';
	/** Executions after which n8n would write the static data to its database (it changed). */
	let staticDataWrites = 0;
	const mode = options.mode ?? 'webhook';
	const workflowId = options.workflowId ?? `workflow-${++workflowCount}`;

	/** A fresh Workflow per call, its static data loaded from the last save. */
	function loadWorkflow(staticData = savedStaticData) {
		return new Workflow({
			id: workflowId,
			name: 'Trigger test',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(staticData) as IDataObject,
		});
	}

	function save(workflow: WorkflowType) {
		if ((workflow.staticData as { __dataChanged?: boolean }).__dataChanged === true) {
			savedStaticData = JSON.stringify(workflow.staticData);
		}
	}

	function additionalData(extra: Partial<IWorkflowExecuteAdditionalData> = {}) {
		return {
			webhookBaseUrl: WEBHOOK_BASE_URL,
			webhookTestBaseUrl: 'http://n8n.test/webhook-test',
			// Parameter reads in the execution build $execution.resumeUrl from these, as n8n's own additional data does.
			webhookWaitingBaseUrl: 'http://n8n.test/webhook-waiting',
			formWaitingBaseUrl: 'http://n8n.test/form-waiting',
			executionId: 'execution-1',
			credentialsHelper: {
				isCredentialUsableByNode: () => true,
				getParentTypes: () => [],
				preAuthentication: async () => undefined,
				getDecrypted: async () => {
					if (!options.credentials) throw new Error('no credentials in this harness');
					return options.credentials;
				},
				authenticate: async (credentials: ICredentialDataDecryptedObject, _type: string, request: IDataObject) => ({
					...request,
					headers: { ...(request.headers as IDataObject), Authorization: `Bearer ${String(credentials.apiToken)}` },
				}),
			},
			...extra,
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	function webhookData(workflow: WorkflowType): IWebhookData {
		const description = nodeType.description.webhooks![0];
		return {
			httpMethod: 'POST',
			node: NODE_NAME,
			path: `${node.webhookId}/webhook`,
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData(),
		};
	}

	let activated = false;

	async function deliver(request: DeliveryRequest): Promise<Answer> {
		// n8n activates a workflow (publish, or start-up) before its production URL receives anything.
		if (mode !== 'manual' && !activated) await activate();
		const workflow = loadWorkflow();
		const response = new ResponseRecorder();
		const headers = request.headers ?? {};
		const remoteAddress = request.remoteAddress ?? '127.0.0.1';
		const forwardedFor = headers['x-forwarded-for'];
		const httpRequest = {
			body: request.body,
			headers,
			rawBody: request.rawBody,
			params: {},
			query: request.query ?? {},
			socket: { remoteAddress },
			...clientAddress(remoteAddress, Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor, options.proxyHops ?? 0),
		};
		const context = new WebhookContext(
			workflow,
			node,
			additionalData({ httpRequest, httpResponse: response } as unknown as Partial<IWorkflowExecuteAdditionalData>),
			mode,
			webhookData(workflow),
			[],
			null,
		);
		const result = await nodeType.webhook!.call(context);
		const output = result.workflowData === undefined ? undefined : await runExecution(result.workflowData);
		if (result.noWebhookResponse === true) {
			return { status: response.statusCode, body: response.body, emitted: undefined };
		}
		if (result.workflowData === undefined) {
			return { status: 200, body: result.webhookResponse ?? { message: 'Webhook call received' }, emitted: undefined };
		}
		return { status: 200, body: onReceivedBody(nodeType.description.webhooks![0].responseData, result.webhookResponse), emitted: result.workflowData[0].map((item) => item.json), output };
	}

	/** The execution a delivery starts, as WorkflowRunner runs it in the main process. */
	async function runExecution(startData: INodeExecutionData[][]): Promise<IDataObject[]> {
		await useDeduplicationStore();
		const workflow = loadWorkflow(options.queueWorker ? '{}' : savedStaticData);
		const record = { id: workflow.id, name: workflow.name ?? '', active: true, isArchived: false, nodes: [node], connections: {}, createdAt: new Date(), updatedAt: new Date(), activeVersionId: null };
		const hooks = new ExecutionLifecycleHooks(mode, 'execution-1', record);
		hooks.addHandler('workflowExecuteAfter', (_run, newStaticData) => {
			if (mode !== 'manual' && newStaticData) {
				savedStaticData = JSON.stringify(newStaticData);
				staticDataWrites++;
			}
		});
		const runData = createRunExecutionData({ executionData: { nodeExecutionStack: [{ node, data: { main: startData }, source: null }] } });
		const run = await new WorkflowExecute(additionalData({ hooks }), mode, runData).processRunExecutionData(workflow);
		const error = run.data.resultData.error;
		if (error) throw new Error(`the execution failed: ${error.message}`, { cause: error });
		return (run.data.resultData.runData[NODE_NAME]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
	}

	async function hook(method: 'checkExists' | 'create' | 'delete'): Promise<boolean> {
		const workflow = loadWorkflow();
		const context = new HookContext(workflow, node, additionalData(), mode, 'activate', webhookData(workflow));
		const result = await nodeType.webhookMethods!.default![method].call(context);
		save(workflow);
		return result;
	}

	/** n8n's activation: create only when checkExists says the entry is missing. */
	async function activate(): Promise<void> {
		activated = true;
		if (!(await hook('checkExists'))) await hook('create');
	}

	return {
		deliver,
		hook,
		activate,
		webhookUrl: `${WEBHOOK_BASE_URL}/${node.webhookId}/webhook`,
		staticData: () => (JSON.parse(savedStaticData) as Record<string, IDataObject>)[`node:${NODE_NAME}`] ?? {},
		workflowId,
		savedStaticData: () => savedStaticData,
		savedStaticDataBytes: () => Buffer.byteLength(savedStaticData),
		staticDataWrites: () => staticDataWrites,
	};
}

/**
 * express 5's `req.ip` and `req.ips` with `trust proxy` set to a hop count (all n8n sets): the socket's address, then
 * X-Forwarded-For from the right, one entry per trusted hop; `ip` is the last address reached. Checked against
 * express 5.1.0 (n8n 2.40.7's) for 0–3 hops and 0–3 forwarded entries.
 */
function clientAddress(socketAddress: string, forwardedFor: string | undefined, hops: number): { ip: string; ips: string[] } {
	const forwarded = (forwardedFor ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
	const reached = [socketAddress, ...forwarded.reverse()].slice(0, hops + 1);
	return { ip: reached[reached.length - 1], ips: reached.slice(1).reverse() };
}

/** n8n 2.40.7's answer to a delivery that started the workflow (webhook-helpers, extractWebhookOnReceivedResponse). */
function onReceivedBody(responseData: unknown, webhookResponse: unknown): unknown {
	const evaluated = responseData === undefined ? 'firstEntryJson' : responseData;
	if (evaluated === 'noData') return undefined;
	if (evaluated) return evaluated;
	return webhookResponse ?? { message: 'Workflow was started' };
}

/** The part of express's Response that a node may use to answer by itself. */
class ResponseRecorder {
	statusCode = 200;
	body: unknown = undefined;
	status(code: number) {
		this.statusCode = code;
		return this;
	}
	json(body: unknown) {
		this.body = body;
		return this;
	}
	send(body: unknown) {
		this.body = body;
		return this;
	}
	end(body?: unknown) {
		if (body !== undefined) this.body = body;
		return this;
	}
}
