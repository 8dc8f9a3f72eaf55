/** Source → Get: one company, by domain or by source ID. */
import { updateDisplayOptions, type IExecuteFunctions } from 'n8n-workflow';
import { perItem } from '../../helpers/items';
import { forSource, sourceLocator } from '../../../shared/source-locator';
import { sourceAt } from '../../../shared/api/sources';
import { shapedOutput } from '../../../shared/output/action';
import { simplifyProperty, outputFor } from '../common.description';

export const description = updateDisplayOptions({ show: { resource: ['source'], operation: ['get'] } }, [sourceLocator, simplifyProperty, ...outputFor('source')]);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const source = await forSource(this, itemIndex, 'source', async (path) => await sourceAt(this, 'Source → Get', path));
	return shapedOutput(this, itemIndex, 'source', source);
});
