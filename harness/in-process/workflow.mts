/**
 * Runs nodes the way n8n runs a manual execution: a Workflow (n8n-workflow)
 * of a Manual Trigger whose output is pinned to the given input items,
 * followed by the nodes under test in a chain, executed by n8n-core's
 * WorkflowExecute. Parameters are stored with every default filled in, as the
 * editor saves them. HTTP goes through n8n-core's own request helpers.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData, INodeParameters, IRun, WorkflowExecuteMode } from 'n8n-workflow';
import { additionalData } from './additional-data.mts';
import { useDeduplicationStore } from './deduplication.mts';
import { buildNode, workflowRecord, type NodeSpec } from './build.mts';
import { loadPackages } from './packages.mts';
import { coreRuntime, workflowRuntime } from './runtime.mts';

export interface NodeRun {
	/** The node's first output (the success output). */
	items: INodeExecutionData[];
	/** The node's execution error when the run failed (see NodeRunError). */
	error?: NodeRunError;
	/** Every main output of the node (with continueErrorOutput, [success, error]). */
	outputs: INodeExecutionData[][];
	/** The engine's measure of the node's run, in ms. */
	executionTime?: number;
	/** The execution hints the node added (addExecutionHints), as the editor shows them. */
	hints: Array<{ message: string; type?: string; location?: string }>;
}

/**
 * The engine stores a node's error as a plain copy of its fields (n8n saves it
 * with the execution); the harness gives it back as an Error with those
 * fields: `name` is the original class name ('NodeApiError',
 * 'NodeOperationError'), plus `description`, `httpCode`, `context`, ….
 */
export type NodeRunError = Error & { description?: string | null; httpCode?: string | null; context?: IDataObject };

/** A node of the chain. */
export type NodeStep = NodeSpec & { parameters: INodeParameters };

export interface RunOptions {
	/** Items fed to the first node (the pinned output of the Manual Trigger before it); default [{}]. */
	input?: Array<Record<string, unknown>>;
	/** Decrypted credential data by credential type name; each node gets a reference to every type given. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** The execution's mode (default 'manual', the editor's); 'trigger' runs as a published workflow's execution does. */
	mode?: WorkflowExecuteMode;
	/** The workflow's id (default 'harness-workflow'): the key of a node's records in the deduplication store. */
	workflowId?: string;
}

const TRIGGER_NAME = 'Manual Trigger';
const stepName = (index: number) => `Node ${index + 1}`;

export async function runNode(options: NodeStep & RunOptions): Promise<NodeRun> {
	const { input, credentials, mode, workflowId, ...step } = options;
	const runs = await runChain([step], { input, credentials, mode, workflowId });
	return runs[0];
}

/** Runs the steps in a chain after the trigger; one NodeRun per step (empty when a step did not run). */
export async function runChain(steps: NodeStep[], options: RunOptions = {}): Promise<NodeRun[]> {
	const packages = await loadPackages();
	await useDeduplicationStore();
	const credentials = options.credentials ?? {};
	const trigger = buildNode(packages, { type: 'n8n-nodes-base.manualTrigger' }, { id: 'node-0', name: TRIGGER_NAME, x: 0 }, {});
	const nodes = [
		trigger,
		...steps.map((step, index) => buildNode(packages, step, { id: `node-${index + 1}`, name: stepName(index), x: (index + 1) * 200 }, credentials)),
	];
	const connections = Object.fromEntries(
		nodes.slice(0, -1).map((node, index) => [node.name, { main: [[{ node: nodes[index + 1].name, type: 'main' as const, index: 0 }]] }]),
	);
	const pinData = { [TRIGGER_NAME]: (options.input ?? [{}]).map((json) => ({ json: json as IDataObject })) };
	const workflowData = workflowRecord(options.workflowId ?? 'harness-workflow', nodes, connections);
	const workflow = new workflowRuntime.Workflow({ id: workflowData.id, nodes, connections, active: false, nodeTypes: packages.nodeTypes, pinData });
	const execute = new coreRuntime.WorkflowExecute(additionalData({ packages, credentials, workflowData }), options.mode ?? 'manual');
	const run = await execute.run({ workflow, startNode: trigger, pinData });
	return steps.map((_, index) => nodeRun(run, stepName(index)));
}

function nodeRun(run: IRun, name: string): NodeRun {
	const task = run.data.resultData.runData[name]?.[0];
	const outputs = (task?.data?.main ?? []).map((output) => output ?? []);
	const stored = task?.error ?? (run.data.resultData.lastNodeExecuted === name ? run.data.resultData.error : undefined);
	return { items: outputs[0] ?? [], outputs, executionTime: task?.executionTime, hints: task?.hints ?? [], ...(stored ? { error: asError(stored) } : {}) };
}

function asError(stored: object): NodeRunError {
	if (stored instanceof Error) return stored;
	const fields = stored as { message?: string; name?: string; stack?: string };
	const error = Object.assign(new Error(fields.message ?? 'Unknown error'), stored) as NodeRunError;
	if (fields.name) error.name = fields.name;
	return error;
}
