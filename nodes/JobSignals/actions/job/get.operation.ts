/** Job → Get: one job post by its job_id. */
import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';
import { perItem, readText } from '../../helpers/items';
import { serviceRequest } from '../../../shared/transport/request';
import { target } from '../../../shared/transport/answers';
import { shapedOutput } from '../../../shared/output/action';
import { simplifyProperty, outputFor } from '../common.description';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = { name: 'Get', value: 'get', description: 'Get a job post by its ID', action: 'Get a job' };

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
	const job = await serviceRequest(this, { ...target('jobById', { job_id: jobId }), operation: 'Job → Get' });
	return shapedOutput(this, itemIndex, 'job', job);
});

