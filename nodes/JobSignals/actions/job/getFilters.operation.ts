/** Job → Get Filters: the filter options the account can search with (locations, job tags, industry tags, categories). */
import type { IExecuteFunctions } from 'n8n-workflow';
import { API_PATHS } from '../../contract';
import { perItem } from '../../helpers/items';
import { serviceRequest } from '../../transport/request';

export const description = [];

export const execute = perItem(async function (this: IExecuteFunctions) {
	return await serviceRequest.call(this, { method: 'GET', on: 'api', path: API_PATHS.jobFilters, idempotent: true, answer: 'filters', operation: 'Job → Get Filters' });
});
