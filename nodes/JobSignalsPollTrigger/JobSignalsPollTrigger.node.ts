import { NodeConnectionTypes, type INodeType, type INodeTypeDescription, type IPollFunctions } from 'n8n-workflow';
import { jobSearchOptionLists, signalOptionLists } from '../shared/methods/loadOptions';
import { credentialTestMethods } from '../shared/description';
import { poll } from './poll';
import { properties } from './properties';

export class JobSignalsPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Job Signals Poll Trigger',
		name: 'jobSignalsPollTrigger',
		icon: { light: 'file:jobSignalsPollTrigger.svg', dark: 'file:jobSignalsPollTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description: 'Starts the workflow on new intent signals, new jobs or changed jobs, by polling the Job Signals service',
		defaults: { name: 'Job Signals Poll Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'jobSignalsApi', required: true, testedBy: 'jobSignalsApiTest' }],
		properties,
	};

	methods = {
		loadOptions: { ...signalOptionLists, ...jobSearchOptionLists },
		credentialTest: credentialTestMethods,
	};

	async poll(this: IPollFunctions) {
		return await poll.call(this);
	}
}
