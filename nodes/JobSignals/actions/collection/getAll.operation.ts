/** Collection → Get Many: the account's activated collections (one call; the list is not paginated). */
import { updateDisplayOptions, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { API_PATHS } from '../../contract';
import { perItem, readLimit } from '../../helpers/items';
import { serviceRequest, type ServiceContext } from '../../transport/request';
import { returnAllAndLimit } from '../common.description';

export const description = updateDisplayOptions({ show: { resource: ['collection'], operation: ['getAll'] } }, returnAllAndLimit);

/** The account's collections: the one request of this operation and of the Collection picker (methods/listSearch.ts). */
export async function accountCollections(context: ServiceContext, operation: string): Promise<IDataObject[]> {
	const body = await serviceRequest.call(context, { method: 'GET', on: 'api', path: API_PATHS.collections, idempotent: true, answer: 'collections', operation });
	return body.data as IDataObject[];
}

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const limit = readLimit(this, itemIndex);
	const collections = await accountCollections(this, 'Collection → Get Many');
	return limit === undefined ? collections : collections.slice(0, limit);
});
