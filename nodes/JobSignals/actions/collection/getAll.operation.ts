/** Collection → Get Many: the account's activated collections (one call; the list is not paginated). */
import { updateDisplayOptions, type IExecuteFunctions, type INodePropertyOptions } from 'n8n-workflow';
import { perItem, readLimit } from '../../helpers/items';
import { outputFor, returnAllAndLimit } from '../common.description';
import { shapedOutput } from '../../../shared/output/action';
import { serviceRequest } from '../../../shared/transport/request';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = { name: 'Get Many', value: 'getAll', description: 'Get the account\'s collections', action: 'Get many collections' };

export const description = updateDisplayOptions({ show: { resource: ['collection'], operation: ['getAll'] } }, [...returnAllAndLimit, ...outputFor('collection')]);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const limit = readLimit(this, itemIndex);
	const { data: collections } = await serviceRequest(this, { endpoint: 'collections', operation: 'Collection → Get Many' });
	return shapedOutput(this, itemIndex, 'collection', limit === undefined ? collections : collections.slice(0, limit));
});
