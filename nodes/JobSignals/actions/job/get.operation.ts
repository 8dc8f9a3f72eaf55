/** Job → Get: one job post by its job_id. */
import { NodeApiError, updateDisplayOptions, type IExecuteFunctions, type INode, type INodeProperties, type JsonObject } from 'n8n-workflow';
import { API_PATHS, fillPath } from '../../../shared/contract';
import { perItem, readText } from '../../helpers/items';
import { shapedOutput } from '../../../shared/output/action';
import { serviceRequest } from '../../../shared/transport/request';
import { simplifyProperty, outputFor } from '../common.description';

const properties: INodeProperties[] = [
	{
		displayName: 'Job ID',
		name: 'jobId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. job_0000001',
		description: 'The job_id, as found in job lists, signals (jobs_list) and webhook events',
	},
	simplifyProperty,
	...outputFor('job'),
];

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['get'] } }, properties);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const jobId = readText(this, 'jobId', 'Job ID', itemIndex);
	const path = fillPath(API_PATHS.jobById, { job_id: jobId });
	const job = await serviceRequest
		.call(this, { method: 'GET', on: 'api', path, idempotent: true, answer: 'job', operation: 'Job → Get' })
		.catch(async (error: unknown) => await Promise.reject(withNextStep(this.getNode(), error, jobId, itemIndex)));
	return shapedOutput(this, itemIndex, 'job', job);
});

/** A 404 keeps the service's message and gets the next step; any other failure goes on as it came. */
function withNextStep(node: INode, error: unknown, jobId: string, itemIndex: number): unknown {
	if (!(error instanceof NodeApiError && error.httpCode === '404')) return error;
	return new NodeApiError(node, { status: 404, message: error.message } as JsonObject, {
		httpCode: '404',
		itemIndex,
		message: error.message,
		description: `Check the Job ID ("${jobId}"). The job may also have been deleted: the API no longer returns deleted jobs. Job → Search or Job → Get Many for Source list the current job IDs.`,
	});
}
