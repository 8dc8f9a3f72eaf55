import { NodeConnectionTypes, type IExecuteFunctions, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { properties } from './actions/resources';
import { router } from './actions/router';
import { jobSearchOptionLists, signalOptionLists } from '../shared/methods/loadOptions';
import { searchCollections } from '../shared/methods/listSearch';
import { credentialTestMethods } from '../shared/transport/credential-test';

export class JobSignals implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Job Signals',
		name: 'jobSignals',
		icon: { light: 'file:jobSignals.svg', dark: 'file:jobSignals.dark.svg' },
		group: ['input'],
		// 2: Simplify, on by default (version 1 workflows keep the raw output they were built on).
		// 3: Output (Simplified, at most 10 fields; Raw; Selected Fields) instead of Simplify, and the search syntax checked.
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Get intent signals, jobs, companies and collections, and upload subscribers, with the Job Signals service',
		defaults: { name: 'Job Signals' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'jobSignalsApi', required: true, testedBy: 'jobSignalsApiTest', displayOptions: { hide: { resource: ['deduplication'] } } }],
		properties,
	};

	methods = {
		loadOptions: { ...signalOptionLists, ...jobSearchOptionLists },
		listSearch: { searchCollections },
		credentialTest: credentialTestMethods,
	};

	async execute(this: IExecuteFunctions) {
		return await router.call(this);
	}
}
