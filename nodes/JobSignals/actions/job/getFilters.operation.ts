/** Job → Get Filters: the filter options the account can search with (locations, job tags, industry tags, categories). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { API_PATHS } from '../../contract';
import { perItem } from '../../helpers/items';
import { serviceRequest, type ServiceContext } from '../../transport/request';

export const description = [];

/** The account's filter options: the one request of this operation and of the Job Tags / Industry Tags lists (methods/loadOptions.ts). */
export async function accountFilters(context: ServiceContext, operation: string): Promise<IDataObject> {
	return await serviceRequest.call(context, { method: 'GET', on: 'api', path: API_PATHS.jobFilters, idempotent: true, answer: 'filters', operation });
}

export const execute = perItem(async function (this: IExecuteFunctions) {
	return await accountFilters(this, 'Job → Get Filters');
});
