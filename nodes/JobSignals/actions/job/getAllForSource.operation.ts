/** Job → Get Many for Source: a company's jobs, newest first, following the cursor. */
import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';
import { perItem, readLimit } from '../../helpers/items';
import { forSource, sourceLocator } from '../../../shared/source-locator';
import { collectPages } from '../../../shared/pages/collect';
import { jobsCursorList } from '../../../shared/pages/list-kinds';
import { shapedOutput } from '../../../shared/output/action';
import { cursorPagingOptions, readOptions, readStartCursor, withTotals } from '../../helpers/paging-options';
import { returnAllAndLimit, simplifyProperty, outputFor } from '../common.description';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = {
	name: 'Get Many for Source',
	value: 'getAllForSource',
	description: 'Get the job posts of a company, newest first',
	action: 'Get many jobs of a source',
};

const properties: INodeProperties[] = [sourceLocator, ...returnAllAndLimit, simplifyProperty, ...outputFor('job'), cursorPagingOptions];

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['getAllForSource'] } }, properties);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const limit = readLimit(this, itemIndex);
	const options = readOptions(this, itemIndex);
	const collected = await forSource(this, itemIndex, 'jobs', async (at) =>
		await collectPages(this, { request: { ...at, operation: 'Job → Get Many for Source' }, list: jobsCursorList(readStartCursor(options)) }, { limit }),
	);
	return withTotals(shapedOutput(this, itemIndex, 'job', collected.items), options, collected.summary);
});
