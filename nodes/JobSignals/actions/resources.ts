/** Every resource: its operations (for the router) and its parameters (for the node's description). */
import type { INodeProperties } from 'n8n-workflow';
import type { OperationRun } from '../helpers/items';
import * as collection from './collection';
import * as job from './job';
import * as signal from './signal';
import * as source from './source';
import * as subscriber from './subscriber';

export const RESOURCES = { signal, job, source, collection, subscriber } as const;

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Collection', value: 'collection' },
		{ name: 'Job', value: 'job' },
		{ name: 'Signal', value: 'signal' },
		{ name: 'Source', value: 'source' },
		{ name: 'Subscriber', value: 'subscriber' },
	],
	default: 'signal',
};

export const properties: INodeProperties[] = [resourceProperty, ...Object.values(RESOURCES).flatMap((r) => r.description)];

export function operationFor(resource: string, operation: string): OperationRun | undefined {
	const entry = (RESOURCES as Record<string, { operations: Record<string, OperationRun> }>)[resource];
	return entry?.operations[operation];
}
