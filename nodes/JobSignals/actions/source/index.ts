import type { INodeProperties } from 'n8n-workflow';
import type { OperationRun } from '../../helpers/items';
import * as get from './get.operation';
import * as getAllInCollection from './getAllInCollection.operation';

export const operations: Record<string, OperationRun> = { get: get.execute, getAllInCollection: getAllInCollection.execute };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['source'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get a company by its domain or ID', action: 'Get a source' },
			{
				name: 'Get Many in Collection',
				value: 'getAllInCollection',
				description: 'Get the companies of one of the account\'s collections',
				action: 'Get many sources in a collection',
			},
		],
		default: 'get',
	},
	...get.description,
	...getAllInCollection.description,
];
