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
		{ name: 'Collection', value: 'collection', description: 'Lists of companies the account keeps in the service\'s web application' },
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

export const properties: INodeProperties[] = [resourceProperty, deprecationNotice, ...Object.values(RESOURCES).flatMap((r) => r.description)];

export function operationFor(resource: string, operation: string): OperationRun | undefined {
	const entry = (RESOURCES as Record<string, { operations: Record<string, OperationRun> }>)[resource];
	return entry?.operations[operation];
}
