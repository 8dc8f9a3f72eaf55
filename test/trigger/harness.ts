/**
 * Runs the trigger the way n8n does, through n8n-core's real WebhookContext
 * and HookContext on a real n8n-workflow Workflow, with these stand-ins for
 * what the n8n server provides:
 * - static data is saved as JSON after each call and loaded into a new
 *   Workflow for the next (as n8n saves it to and loads it from its database
 *   per production webhook request), so "survives a restart" is what runs;
 * - the HTTP answer follows n8n's webhook helper for responseMode onReceived:
 *   if the node answered itself (noWebhookResponse) that answer stands; with no
 *   workflow data, 200 with webhookResponse (or n8n's default message); with
 *   workflow data, 200 "Workflow was started";
 * - credentials come from a map; authentication adds the bearer header the
 *   credential's generic `authenticate` adds.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import {
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IWebhookData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { HookContext, WebhookContext } from 'n8n-core';

// n8n-core's InstanceSettings, created with the first context, writes a config
// file under the user folder: keep it in a temp dir.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'trigger-harness-'));

export const NODE_TYPE = 'n8n-nodes-job-signals.jobSignalsTrigger';
export const WEBHOOK_BASE_URL = 'http://n8n.test/webhook';
const NODE_NAME = 'Job Signals Trigger';

export interface Answer {
	status: number;
	body: unknown;
	/** Items the workflow would start with; undefined when it does not start. */
	emitted: IDataObject[] | undefined;
}

export interface DeliveryRequest {
	body: unknown;
	headers?: IncomingHttpHeaders;
	rawBody?: Buffer;
}

export interface TriggerOptions {
	/** The trigger's class instance: the TypeScript source in tests, the built package in the benchmark. */
	nodeType: INodeType;
	parameters?: INodeParameters;
	credentials?: ICredentialDataDecryptedObject;
	mode?: WorkflowExecuteMode;
}

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
		null,
		nodeType.description,
	) as INode['parameters'];
	const node: INode = {
		id: 'trigger-node',
		name: NODE_NAME,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: 'e7f1c0de-0000-4000-8000-000000000001',
		parameters,
		...(options.credentials ? { credentials: { jobSignalsApi: { id: 'cred-1', name: 'Job Signals' } } } : {}),
	};
	let savedStaticData = '{}';
	const mode = options.mode ?? 'webhook';

	/** A fresh Workflow per call, its static data loaded from the last save. */
	function loadWorkflow() {
		return new Workflow({
			id: 'workflow-1',
			name: 'Trigger test',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(savedStaticData) as IDataObject,
		});
	}

	function save(workflow: Workflow) {
		if ((workflow.staticData as { __dataChanged?: boolean }).__dataChanged === true) {
			savedStaticData = JSON.stringify(workflow.staticData);
		}
	}

	function additionalData(extra: Partial<IWorkflowExecuteAdditionalData> = {}) {
		return {
			webhookBaseUrl: WEBHOOK_BASE_URL,
			webhookTestBaseUrl: 'http://n8n.test/webhook-test',
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

	function webhookData(workflow: Workflow): IWebhookData {
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

	async function deliver(request: DeliveryRequest): Promise<Answer> {
		const workflow = loadWorkflow();
		const response = new ResponseRecorder();
		const httpRequest = {
			body: request.body,
			headers: request.headers ?? {},
			rawBody: request.rawBody,
			params: {},
			query: {},
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
		save(workflow);
		if (result.noWebhookResponse === true) {
			return { status: response.statusCode, body: response.body, emitted: undefined };
		}
		if (result.workflowData === undefined) {
			return { status: 200, body: result.webhookResponse ?? { message: 'Webhook call received' }, emitted: undefined };
		}
		return {
			status: 200,
			body: { message: 'Workflow was started' },
			emitted: result.workflowData[0].map((item) => item.json),
		};
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
		if (!(await hook('checkExists'))) await hook('create');
	}

	return {
		deliver,
		hook,
		activate,
		webhookUrl: `${WEBHOOK_BASE_URL}/${node.webhookId}/webhook`,
		staticData: () => (JSON.parse(savedStaticData) as Record<string, IDataObject>)[`node:${NODE_NAME}`] ?? {},
		savedStaticDataBytes: () => Buffer.byteLength(savedStaticData),
	};
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
