/** Job → Get Filters: the filter options the account can search with (locations, job tags, industry tags, categories). */
import type { IExecuteFunctions } from 'n8n-workflow';
import { accountFilters } from '../../../shared/api/filters';
import { perItem } from '../../helpers/items';

export const description = [];

export const execute = perItem(async function (this: IExecuteFunctions) {
	return await accountFilters(this, 'Job → Get Filters');
});
