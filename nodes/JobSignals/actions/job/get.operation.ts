/** Job → Get: one job post by its job_id. */
import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';
import { API_PATHS, fillPath } from '../../contract';
import { perItem, readText } from '../../helpers/items';
import { simplified, simplifyJob } from '../../helpers/simplify';
import { serviceRequest } from '../../transport/request';
import { simplifyProperty } from '../common.description';

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
];

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['get'] } }, properties);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const jobId = readText(this, 'jobId', 'Job ID', itemIndex);
	const path = fillPath(API_PATHS.jobById, { job_id: jobId });
	const job = await serviceRequest.call(this, { method: 'GET', on: 'api', path, idempotent: true, answer: 'job', operation: 'Job → Get' });
	return simplified(this, itemIndex, simplifyJob, job);
});
