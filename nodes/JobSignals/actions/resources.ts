/**
 * The node's resources and their operations (the operation files, listed in operations.ts): the Resource and
 * Operation parameters and each operation's own, for the node's description, and the operation a run asks for.
 */
import type { INodeProperties } from 'n8n-workflow';
import type { OperationRun } from '../helpers/items';
import { OPERATIONS, type Operation } from './operations';

type Resource = keyof typeof OPERATIONS;

/** The operation each resource's Operation list starts on, and the order the resources' parameters come in. */
const DEFAULT_OPERATION: { [R in Resource]: keyof (typeof OPERATIONS)[R] } = {
	signal: 'getAll',
	job: 'search',
	source: 'get',
	collection: 'getAll',
	subscriber: 'upload',
	deduplication: 'keepNew',
};

const operationsOf = (resource: Resource): Operation[] => Object.values(OPERATIONS[resource]);

/** A resource's Operation parameter: its operations' own entries, by name. */
function operationProperty(resource: Resource): INodeProperties {
	const first = DEFAULT_OPERATION[resource];
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operationsOf(resource)
			.map((operation) => operation.option)
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: first,
	};
}

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Collection', value: 'collection', description: 'Lists of companies the account keeps in the service\'s web application' },
		{ name: 'Deduplication', value: 'deduplication', description: 'Jobs and signals from several triggers, each passed on once' },
		{ name: 'Job', value: 'job', description: 'Job posts of the companies the account tracks: search them, or get one or a company\'s' },
		{ name: 'Signal', value: 'signal', description: 'Intent signals: problems and changes the service detected at companies, with evidence' },
		{ name: 'Source', value: 'source', description: 'A company the service tracks, by its domain or source ID' },
		{ name: 'Subscriber', value: 'subscriber', description: 'E-mail addresses added to the account\'s subscriber list' },
	],
	default: 'signal',
};

/** The service description marks the jobs and sources API (v2) deprecated, collections included; the signals API is not. */
export const deprecationNotice: INodeProperties = {
	displayName:
		'The service marks its jobs and sources API (v2) as deprecated; collections are part of it. It still works; a successor version has not been announced. Signals and subscriber upload are not affected.',
	name: 'deprecationNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { resource: ['job', 'source', 'collection'] } },
};

export const properties: INodeProperties[] = [
	resourceProperty,
	deprecationNotice,
	...(Object.keys(DEFAULT_OPERATION) as Resource[]).flatMap((resource) => [operationProperty(resource), ...operationsOf(resource).flatMap((operation) => operation.description)]),
];

export function operationFor(resource: string, operation: string): OperationRun | undefined {
	if (!Object.hasOwn(OPERATIONS, resource)) return undefined;
	const operations: Record<string, Operation> = OPERATIONS[resource as Resource];
	return Object.hasOwn(operations, operation) ? operations[operation].execute : undefined;
}
