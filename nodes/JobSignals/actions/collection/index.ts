import type { INodeProperties } from 'n8n-workflow';
import type { OperationRun } from '../../helpers/items';
import * as getAll from './getAll.operation';

export const operations: Record<string, OperationRun> = { getAll: getAll.execute };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['collection'] } },
		options: [
			{ name: 'Get Many', value: 'getAll', description: 'Get the account\'s collections', action: 'Get many collections' },
		],
		default: 'getAll',
	},
	...getAll.description,
];
