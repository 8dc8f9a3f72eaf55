import type { INodeProperties } from 'n8n-workflow';
import type { OperationRun } from '../../helpers/items';
import * as upload from './upload.operation';

export const operations: Record<string, OperationRun> = { upload: upload.execute };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['subscriber'] } },
		options: [
			{
				name: 'Upload',
				value: 'upload',
				description: 'Add e-mail addresses to the account\'s subscriber list',
				action: 'Upload subscribers',
			},
		],
		default: 'upload',
	},
	...upload.description,
];
