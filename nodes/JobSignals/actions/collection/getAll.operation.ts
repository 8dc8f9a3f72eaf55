/** Collection → Get Many: the account's activated collections (one call; the list is not paginated). */
import { updateDisplayOptions, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { API_PATHS } from '../../contract';
import { perItem, readLimit } from '../../helpers/items';
import { serviceRequest } from '../../transport/request';
import { returnAllAndLimit } from '../common.description';

export const description = updateDisplayOptions({ show: { resource: ['collection'], operation: ['getAll'] } }, returnAllAndLimit);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const limit = readLimit(this, itemIndex);
	const body = await serviceRequest.call(this, {
		method: 'GET',
		on: 'api',
		path: API_PATHS.collections,
		idempotent: true,
		answer: 'collections',
		operation: 'Collection → Get Many',
	});
	const collections = body.data as IDataObject[];
	return limit === undefined ? collections : collections.slice(0, limit);
});
