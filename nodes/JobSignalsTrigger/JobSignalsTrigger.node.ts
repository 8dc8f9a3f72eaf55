import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type IHookFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { markLoadedStaticData } from './dedupe-window';
import { properties } from './properties';
import { receiveDelivery } from './receive';
import { writeWindow } from './write-window';
import { markTestListener, releaseClaims } from './release-claims';
import { checkExists, create, remove } from './registration';
import { checkFilters } from './filters';
import { checkSenderSettings, keepingSecretOut } from './sender-checks';
import { credentialTestMethods } from '../shared/transport/credential-test';
import { signalFilterPickers } from '../shared/methods/signalPickers';

export class JobSignalsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Job Signals Trigger',
		name: 'jobSignalsTrigger',
		icon: { light: 'file:jobSignalsTrigger.svg', dark: 'file:jobSignalsTrigger.dark.svg' },
		group: ['trigger'],
		// 1.1: Output and filters, and n8n 2.40 parses its body by content type without the Webhook-v1 expression (docs/trigger.md, "Trigger versions").
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		// The action node's description, word for word: n8n's nodes panel shows one entry for the app (the action node and
		// this trigger, whose name is the action node's plus "Trigger") and gives it the trigger's description. The trigger's
		// own events are listed under that entry as its actions ("On job event" …).
		description: 'Get intent signals, jobs, companies and collections, and upload subscribers, with the Job Signals service',
		defaults: { name: 'Job Signals Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'jobSignalsApi',
				required: true,
				testedBy: 'jobSignalsApiTest',
				displayOptions: { show: { registration: ['automatic'] } },
			},
		],
		// responseData '' makes n8n answer a started workflow with the node's webhookResponse; left out,
		// n8n 2.40 answers with the text "firstEntryJson" (its default's name, not the data).
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'webhook' }],
		eventTriggerDescription: 'Waiting for a delivery from the Job Signals service',
		activationMessage: 'Deliveries from the Job Signals service to the Production URL now start this workflow.',
		hints: [
			{
				message:
					'Deliveries can arrive out of order and, after retries, late. To order job events, use the job\'s own created_at, updated_at and deleted_at, not the webhook_ times.',
				type: 'info',
				location: 'outputPane',
				whenToDisplay: 'always',
			},
		],
		properties,
	};

	methods = { credentialTest: credentialTestMethods, loadOptions: signalFilterPickers };

	webhookMethods = {
		default: {
			// Each runs through keepingSecretOut: no error it throws carries the URL Secret (sender-checks.ts).
			checkExists(this: IHookFunctions): Promise<boolean> {
				return keepingSecretOut(this, async () => {
					// n8n calls this on every activation (publish, and each start) and saves static data after it.
					checkSenderSettings(this);
					checkFilters(this);
					markLoadedStaticData(this.getWorkflowStaticData('node'));
					markTestListener(this);
					return await checkExists.call(this);
				});
			},
			create(this: IHookFunctions): Promise<boolean> {
				return keepingSecretOut(this, async () => await create.call(this));
			},
			delete(this: IHookFunctions): Promise<boolean> {
				return keepingSecretOut(this, async () => {
					const removed = await remove.call(this);
					releaseClaims(this);
					return removed;
				});
			},
		},
	};

	webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return keepingSecretOut(this, async () => await receiveDelivery.call(this));
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await writeWindow.call(this);
	}
}
