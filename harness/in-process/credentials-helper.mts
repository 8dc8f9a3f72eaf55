/**
 * The credentials side of n8n's server, for one run: credential data comes
 * decrypted from a map by credential type name, and `authenticate` applies the
 * credential type's own `authenticate` as n8n's CredentialsHelper does — a
 * function is called; a generic one has every key and value of its headers,
 * qs, body and auth resolved as expressions with `$credentials` and written
 * into the request part of the same name. No credential `test` is involved.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import type { Packages } from './packages.mts';
import { workflowRuntime } from './runtime.mts';

const GENERIC_PARTS = ['headers', 'qs', 'body', 'auth'] as const;

export class HarnessCredentialsHelper extends workflowRuntime.ICredentialsHelper {
	constructor(
		private readonly packages: Packages,
		private readonly credentials: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string): Promise<ICredentialDataDecryptedObject> {
		const data = this.credentials[type];
		if (!data) throw new Error(`The harness was given no "${type}" credentials`);
		// A copy, as n8n decrypts afresh for every use: a node cannot change the stored data.
		return structuredClone(data);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incoming: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const request = incoming as IHttpRequestOptions;
		const { authenticate } = this.packages.credential(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, request);
		if (authenticate?.type !== 'generic') return request;
		if (!workflow || !node) throw new Error('Generic credential authentication needs the workflow and node to resolve expressions');
		const resolve = (value: unknown) => {
			if (!workflowRuntime.isExpression(value)) return value;
			const resolved = workflow.expression.getSimpleParameterValue(node, value as string, 'internal', { $credentials: credentials }, undefined, '');
			return resolved ? String(resolved) : '';
		};
		const target = request as unknown as Record<string, IDataObject | undefined>;
		for (const part of GENERIC_PARTS) {
			const entries = authenticate.properties[part] as IDataObject | undefined;
			if (!entries) continue;
			const resolved = target[part] ?? {};
			for (const [key, value] of Object.entries(entries)) resolved[String(resolve(key))] = resolve(value) as IDataObject[string];
			target[part] = resolved;
		}
		return request;
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getParentTypes(name: string): string[] {
		const parents = this.packages.credential(name).extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.packages.credential(type).properties;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('The harness has no stored (encrypted) credentials');
	}

	async updateCredentials(): Promise<void> {
		throw new Error('The harness does not store credentials');
	}

	async updateCredentialsOauthTokenData(): Promise<void> {
		throw new Error('The harness does not store credentials');
	}
}
