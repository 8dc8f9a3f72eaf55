/** Source → Get Many in Collection: the companies of one collection, following the cursor. */
import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';
import { API_PATHS, CURSOR_PARAMS, fillPath } from '../../../shared/contract';
import { collectionLocator, readCollectionId } from '../../helpers/collection-locator';
import { perItem, readLimit } from '../../helpers/items';
import { collectPages, cursorPager } from '../../../shared/transport/paginate';
import { shapedOutput } from '../../../shared/output/action';
import { cursorWalkOptions, readOptions, readStartCursor, withTotals } from '../../helpers/walk-options';
import { returnAllAndLimit, simplifyProperty, outputFor } from '../common.description';

const properties: INodeProperties[] = [collectionLocator, ...returnAllAndLimit, simplifyProperty, ...outputFor('source'), cursorWalkOptions];

export const description = updateDisplayOptions({ show: { resource: ['source'], operation: ['getAllInCollection'] } }, properties);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const path = fillPath(API_PATHS.sourcesOfCollection, { collection_id: readCollectionId(this, itemIndex) });
	const limit = readLimit(this, itemIndex);
	const options = readOptions(this, itemIndex);
	const walk = await collectPages.call(this, { method: 'GET', on: 'api', path, idempotent: true, operation: 'Source → Get Many in Collection' }, cursorPager(CURSOR_PARAMS.sources, readStartCursor(options)), { limit });
	return withTotals(shapedOutput(this, itemIndex, 'source', walk.items), options, walk.summary);
});
