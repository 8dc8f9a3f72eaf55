/** Source → Get: one company, by domain or by source ID. */
import { updateDisplayOptions, type IExecuteFunctions, type INodePropertyOptions } from 'n8n-workflow';
import { perItem } from '../../helpers/items';
import { forSource, sourceLocator } from '../../../shared/source-locator';
import { serviceRequest } from '../../../shared/transport/request';
import { shapedOutput } from '../../../shared/output/action';
import { simplifyProperty, outputFor } from '../common.description';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = { name: 'Get', value: 'get', description: 'Get a company by its domain or ID', action: 'Get a source' };

export const description = updateDisplayOptions({ show: { resource: ['source'], operation: ['get'] } }, [sourceLocator, simplifyProperty, ...outputFor('source')]);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const source = await forSource(this, itemIndex, 'source', async (at) => await serviceRequest(this, { ...at, operation: 'Source → Get' }));
	return shapedOutput(this, itemIndex, 'source', source);
});
