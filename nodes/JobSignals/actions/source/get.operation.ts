/** Source → Get: one company, by domain or by source ID. */
import { updateDisplayOptions, type IExecuteFunctions } from 'n8n-workflow';
import { perItem } from '../../helpers/items';
import { forSource, sourceLocator } from '../../helpers/source-locator';
import { serviceRequest } from '../../transport/request';

export const description = updateDisplayOptions({ show: { resource: ['source'], operation: ['get'] } }, [sourceLocator]);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	return await forSource(this, itemIndex, 'source', async (path) =>
		await serviceRequest.call(this, { method: 'GET', on: 'api', path, idempotent: true, answer: 'source', operation: 'Source → Get' }),
	);
});
