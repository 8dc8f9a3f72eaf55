/**
 * The pieces of a workflow as n8n stores them: a node with every parameter
 * default filled in (as the editor saves it) and references to its
 * credentials, and the workflow data the lifecycle hooks are given.
 */
import type { ICredentialDataDecryptedObject, IConnections, INode, INodeParameters, IWorkflowBase } from 'n8n-workflow';
import { latestVersion, type Packages } from './packages.mts';
import { workflowRuntime } from './runtime.mts';

export interface NodeSpec {
	/** Full type, e.g. 'n8n-nodes-job-signals.jobSignals' or 'n8n-nodes-base.httpRequest'. */
	type: string;
	/** Default: the node type's latest version. */
	typeVersion?: number;
	parameters?: INodeParameters;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
}

export function buildNode(
	packages: Packages,
	spec: NodeSpec,
	placement: { id: string; name: string; x: number },
	credentials: Record<string, ICredentialDataDecryptedObject>,
): INode {
	const typeVersion = spec.typeVersion ?? latestVersion(packages.node(spec.type));
	const { description } = packages.nodeTypes.getByNameAndVersion(spec.type, typeVersion);
	const parameters = workflowRuntime.NodeHelpers.getNodeParameters(description.properties, spec.parameters ?? {}, true, false, { typeVersion }, description);
	return {
		id: placement.id,
		name: placement.name,
		type: spec.type,
		typeVersion,
		position: [placement.x, 0],
		parameters: parameters ?? {},
		// Every credential type given is referenced; the engine asks the helper only for the types the node uses.
		credentials: Object.fromEntries(Object.keys(credentials).map((type) => [type, { id: `${type}-id`, name: type }])),
		...(spec.onError ? { onError: spec.onError } : {}),
	};
}

export function workflowRecord(id: string, nodes: INode[], connections: IConnections): IWorkflowBase {
	const now = new Date();
	return { id, name: id, active: false, isArchived: false, nodes, connections, createdAt: now, updatedAt: now, activeVersionId: null };
}
