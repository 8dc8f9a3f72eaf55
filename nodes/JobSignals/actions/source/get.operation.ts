/** Source → Get: one company, by domain or by source ID. */
import { updateDisplayOptions, type IExecuteFunctions } from 'n8n-workflow';
import { perItem } from '../../helpers/items';
import { forSource, sourceLocator } from '../../../shared/source-locator';
import { simplified, simplifySource } from '../../../shared/simplify';
import { sourceAt } from '../../../shared/api/sources';
import { simplifyProperty } from '../common.description';

export const description = updateDisplayOptions({ show: { resource: ['source'], operation: ['get'] } }, [sourceLocator, simplifyProperty]);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const source = await forSource(this, itemIndex, 'source', async (path) => await sourceAt(this, 'Source → Get', path));
	return simplified(this, itemIndex, simplifySource, source);
});
