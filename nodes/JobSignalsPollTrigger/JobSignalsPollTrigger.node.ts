import { NodeConnectionTypes, type INodeType, type INodeTypeDescription, type IPollFunctions } from 'n8n-workflow';
import { jobSearchOptionLists, signalOptionLists } from '../shared/methods/loadOptions';
import { credentialTestMethods } from '../shared/transport/credential-test';
import { poll } from './poll';
import { properties } from './properties';

export class JobSignalsPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		// n8n's panel, toasts and publish dialog cut " Trigger": they read "Job Signals (Polling)".
		displayName: 'Job Signals (Polling) Trigger',
		name: 'jobSignalsPollTrigger',
		icon: { light: 'file:jobSignalsPollTrigger.svg', dark: 'file:jobSignalsPollTrigger.dark.svg' },
		group: ['trigger'],
		// 1.1: Output (Simplified by default) and A Job Search as New Job's default source (properties.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["event"]}}',
		description: 'Starts the workflow on new intent signals, new jobs or changed jobs, by polling the Job Signals service',
		defaults: { name: 'Job Signals (Polling) Trigger' },
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
