/**
 * Calls a node type's `loadOptions` or `listSearch` method the way the editor
 * does: on a one-node workflow holding the node with its current parameters,
 * through n8n-core's LoadOptionsContext (so `getCurrentNodeParameter`,
 * credentials and HTTP helpers behave as in n8n).
 */
import type { ICredentialDataDecryptedObject, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';
import { additionalData } from './additional-data.mts';
import { buildNode, workflowRecord, type NodeSpec } from './build.mts';
import { loadPackages } from './packages.mts';
import { coreRuntime, workflowRuntime } from './runtime.mts';

export type MethodCall = Omit<NodeSpec, 'onError'> & {
	/** Decrypted credential data by credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
};

async function context(call: MethodCall, propertyPath: string) {
	const packages = await loadPackages();
	const credentials = call.credentials ?? {};
	const node = buildNode(packages, call, { id: 'node-1', name: 'Node 1', x: 0 }, credentials);
	const nodeType = packages.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const workflowData = workflowRecord('harness-options', [node], {});
	const workflow = new workflowRuntime.Workflow({ id: workflowData.id, nodes: [node], connections: {}, active: false, nodeTypes: packages.nodeTypes });
	const data = additionalData({ packages, credentials, workflowData, currentNodeParameters: node.parameters });
	return { nodeType, context: new coreRuntime.LoadOptionsContext(workflow, node, data, propertyPath) };
}

export async function loadOptions(call: MethodCall & { method: string }): Promise<INodePropertyOptions[]> {
	const { nodeType, context: ctx } = await context(call, `parameters.${call.method}`);
	const method = nodeType.methods?.loadOptions?.[call.method];
	if (!method) throw new Error(`${call.type} has no loadOptions method "${call.method}"`);
	return await method.call(ctx);
}

export async function listSearch(call: MethodCall & { method: string; filter?: string; paginationToken?: string }): Promise<INodeListSearchResult> {
	const { nodeType, context: ctx } = await context(call, `parameters.${call.method}`);
	const method = nodeType.methods?.listSearch?.[call.method];
	if (!method) throw new Error(`${call.type} has no listSearch method "${call.method}"`);
	return await method.call(ctx, call.filter, call.paginationToken);
}
