/** Source → Get Many in Collection: the companies of one collection, following the cursor. */
import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';
import { collectionLocator, readCollectionId } from '../../helpers/collection-locator';
import { perItem, readLimit } from '../../helpers/items';
import { sourcesOfCollection } from '../../../shared/api/sources';
import { collectPages } from '../../../shared/pages/collect';
import { shapedOutput } from '../../../shared/output/action';
import { cursorWalkOptions, readOptions, readStartCursor, withTotals } from '../../helpers/walk-options';
import { returnAllAndLimit, simplifyProperty, outputFor } from '../common.description';

const properties: INodeProperties[] = [collectionLocator, ...returnAllAndLimit, simplifyProperty, ...outputFor('source'), cursorWalkOptions];

export const description = updateDisplayOptions({ show: { resource: ['source'], operation: ['getAllInCollection'] } }, properties);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const limit = readLimit(this, itemIndex);
	const options = readOptions(this, itemIndex);
	const endpoint = sourcesOfCollection('Source → Get Many in Collection', readCollectionId(this, itemIndex), readStartCursor(options));
	const walk = await collectPages(this, endpoint, { limit });
	return withTotals(shapedOutput(this, itemIndex, 'source', walk.items), options, walk.summary);
});
