/** Collection → Get Many: the account's activated collections (one call; the list is not paginated). */
import { updateDisplayOptions, type IExecuteFunctions } from 'n8n-workflow';
import { accountCollections } from '../../../shared/api/collections';
import { perItem, readLimit } from '../../helpers/items';
import { outputFor, returnAllAndLimit } from '../common.description';
import { shapedOutput } from '../../../shared/output/action';

export const description = updateDisplayOptions({ show: { resource: ['collection'], operation: ['getAll'] } }, [...returnAllAndLimit, ...outputFor('collection')]);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const limit = readLimit(this, itemIndex);
	const collections = await accountCollections(this, 'Collection → Get Many');
	return shapedOutput(this, itemIndex, 'collection', limit === undefined ? collections : collections.slice(0, limit));
});
