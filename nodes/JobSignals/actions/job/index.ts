import type { INodeProperties } from 'n8n-workflow';
import type { OperationRun } from '../../helpers/items';
import * as get from './get.operation';
import * as getAllForSource from './getAllForSource.operation';
import * as getFilters from './getFilters.operation';
import * as search from './search.operation';

export const operations: Record<string, OperationRun> = {
	get: get.execute,
	getAllForSource: getAllForSource.execute,
	search: search.execute,
	getFilters: getFilters.execute,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['job'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get a job post by its ID', action: 'Get a job' },
			{
				name: 'Get Filters',
				value: 'getFilters',
				description: 'Get the filter options (locations, tags, categories) the account can search with',
				action: 'Get job search filters',
			},
			{
				name: 'Get Many for Source',
				value: 'getAllForSource',
				description: 'Get the job posts of a company, newest first',
				action: 'Get many jobs of a source',
			},
			{
				name: 'Search',
				value: 'search',
				description: 'Search the account\'s job posts by text, location and job function',
				action: 'Search jobs',
			},
		],
		default: 'search',
	},
	...get.description,
	...getAllForSource.description,
	...search.description,
	...getFilters.description,
];
