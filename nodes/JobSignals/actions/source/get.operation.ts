/** Source → Get: one company, by domain or by source ID. */
import { updateDisplayOptions, type IExecuteFunctions } from 'n8n-workflow';
import { perItem } from '../../helpers/items';
import { forSource, sourceLocator } from '../../../shared/source-locator';
import { shapedOutput } from '../../../shared/output/action';
import { serviceRequest } from '../../../shared/transport/request';
import { simplifyProperty, outputFor } from '../common.description';

export const description = updateDisplayOptions({ show: { resource: ['source'], operation: ['get'] } }, [sourceLocator, simplifyProperty, ...outputFor('source')]);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const source = await forSource(this, itemIndex, 'source', async (path) =>
		await serviceRequest.call(this, { method: 'GET', on: 'api', path, idempotent: true, answer: 'source', operation: 'Source → Get' }),
	);
	return shapedOutput(this, itemIndex, 'source', source);
});
