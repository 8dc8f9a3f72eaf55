/**
 * Node and credential types, loaded the way n8n loads them:
 * - our package with n8n-core's PackageDirectoryLoader (what n8n uses for an
 *   installed community package), from package.json's `n8n` section, which
 *   points at dist/: the harness always runs the built code;
 * - n8n-nodes-base with LazyPackageDirectoryLoader (a PackageDirectoryLoader
 *   that reads the package's prebuilt type index and requires a node's file
 *   only when asked, as n8n does for its own nodes; eager loading would
 *   require all of its hundreds of nodes for every test file).
 * Full type names are `<package>.<node>`, as in a workflow.
 */
import type {
	ICredentialType,
	IDataObject,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	NodeLoader,
} from 'n8n-workflow';
import { NODES_BASE_ROOT, PACKAGE_ROOT, coreRuntime, workflowRuntime } from './runtime.mts';

export interface Packages {
	nodeTypes: INodeTypes;
	/** A node type with all its versions, e.g. to read `currentVersion`. */
	node(fullType: string): INodeType | IVersionedNodeType;
	credential(name: string): ICredentialType;
}

let loading: Promise<Packages> | undefined;

/** Loads both packages once per process. */
export function loadPackages(): Promise<Packages> {
	loading ??= load();
	return loading;
}

async function load(): Promise<Packages> {
	const loaders: NodeLoader[] = [
		new coreRuntime.PackageDirectoryLoader(PACKAGE_ROOT),
		new coreRuntime.LazyPackageDirectoryLoader(NODES_BASE_ROOT),
	];
	for (const loader of loaders) await loader.loadAll();
	const byPackage = new Map(loaders.map((loader) => [loader.packageName, loader]));

	const node = (fullType: string) => {
		const dot = fullType.lastIndexOf('.');
		const loader = byPackage.get(fullType.slice(0, dot));
		if (!loader) throw new Error(`No package loaded for node type "${fullType}"`);
		return loader.getNode(fullType.slice(dot + 1)).type;
	};
	const credential = (name: string) => {
		const loader = loaders.find((l) => name in l.known.credentials);
		if (!loader) throw new Error(`Unknown credential type "${name}"`);
		return loader.getCredential(name).type;
	};
	const nodeTypes: INodeTypes = {
		getByName: node,
		getByNameAndVersion: (fullType, version) => workflowRuntime.NodeHelpers.getVersionedNodeType(node(fullType), version),
		getKnownTypes: () => Object.fromEntries(loaders.flatMap((l) => Object.entries(l.known.nodes).map(([name, details]) => [`${l.packageName}.${name}`, details]))) as IDataObject,
	};
	return { nodeTypes, node, credential };
}

/** The version a new node gets in the editor: a versioned type's current version, else the highest listed. */
export function latestVersion(type: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version } = type.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}
