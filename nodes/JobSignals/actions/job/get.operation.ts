/** Job → Get: one job post by its job_id. */
import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';
import { explainNotFound, NOT_FOUND } from '../../../shared/explain';
import { perItem, readText } from '../../helpers/items';
import { jobById } from '../../../shared/api/jobs';
import { shapedOutput } from '../../../shared/output/action';
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
	const job = await jobById(this, 'Job → Get', jobId).catch(async (error: unknown) => await Promise.reject(explainNotFound(this.getNode(), error, NOT_FOUND.job(jobId), itemIndex)));
	return shapedOutput(this, itemIndex, 'job', job);
});

