/** Source → Get Many in Collection: the companies of one collection, following the cursor. */
import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';
import { collectionLocator, readCollectionId } from '../../helpers/collection-locator';
import { perItem, readLimit } from '../../helpers/items';
import { collectPages } from '../../../shared/pages/collect';
import { sourcesCursorList } from '../../../shared/pages/list-kinds';
import { target } from '../../../shared/transport/answers';
import { shapedOutput } from '../../../shared/output/action';
import { cursorPagingOptions, readOptions, readStartCursor, withTotals } from '../../helpers/paging-options';
import { returnAllAndLimit, simplifyProperty, outputFor } from '../common.description';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = {
	name: 'Get Many in Collection',
	value: 'getAllInCollection',
	description: 'Get the companies of one of the account\'s collections',
	action: 'Get many sources in a collection',
};

const properties: INodeProperties[] = [collectionLocator, ...returnAllAndLimit, simplifyProperty, ...outputFor('source'), cursorPagingOptions];

export const description = updateDisplayOptions({ show: { resource: ['source'], operation: ['getAllInCollection'] } }, properties);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const limit = readLimit(this, itemIndex);
	const options = readOptions(this, itemIndex);
	const at = target('sourcesOfCollection', { collection_id: readCollectionId(this, itemIndex) });
	const collected = await collectPages(this, { request: { ...at, operation: 'Source → Get Many in Collection' }, list: sourcesCursorList(readStartCursor(options)) }, { limit });
	return withTotals(shapedOutput(this, itemIndex, 'source', collected.items), options, collected.summary);
});
