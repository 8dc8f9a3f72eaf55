/** Job → Get Many for Source: a company's jobs, newest first, following the cursor. */
import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';
import { perItem, readLimit } from '../../helpers/items';
import { forSource, sourceLocator } from '../../../shared/source-locator';
import { jobsOfSource } from '../../../shared/api/jobs';
import { collectPages } from '../../../shared/pages/collect';
import { shapedOutput } from '../../../shared/output/action';
import { cursorWalkOptions, readOptions, readStartCursor, withTotals } from '../../helpers/walk-options';
import { returnAllAndLimit, simplifyProperty, outputFor } from '../common.description';

const properties: INodeProperties[] = [sourceLocator, ...returnAllAndLimit, simplifyProperty, ...outputFor('job'), cursorWalkOptions];

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['getAllForSource'] } }, properties);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const limit = readLimit(this, itemIndex);
	const options = readOptions(this, itemIndex);
	const walk = await forSource(this, itemIndex, 'jobs', async (path) =>
		await collectPages(this, jobsOfSource('Job → Get Many for Source', path, readStartCursor(options)), { limit }),
	);
	return withTotals(shapedOutput(this, itemIndex, 'job', walk.items), options, walk.summary);
});
