/** Job → Get Filters: the filter options the account can search with (locations, job tags, industry tags, categories). */
import type { IExecuteFunctions, INodePropertyOptions } from 'n8n-workflow';
import { serviceRequest } from '../../../shared/transport/request';
import { perItem } from '../../helpers/items';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = {
	name: 'Get Filters',
	value: 'getFilters',
	description: 'Get the filter options (locations, tags, categories) the account can search with',
	action: 'Get job search filters',
};

export const description = [];

export const execute = perItem(async function (this: IExecuteFunctions) {
	return await serviceRequest(this, { endpoint: 'jobFilters', operation: 'Job → Get Filters' });
});
