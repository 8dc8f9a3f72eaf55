/** The trigger's parameters. */
import type { INodeProperties } from 'n8n-workflow';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../shared/contract';
import { outputProperty, TRIGGER_OUTPUT_VERSION } from './event-output';
import { filterProperties } from './filters';
import { allowedIpsOption, SECRET_QUERY_PARAMETER, urlSecretOption } from './sender-checks';

const EVENT_LABELS: Record<WebhookEventType, { name: string; description: string }> = {
	job_created: { name: 'Job Created', description: 'A new job appeared on a tracked job board' },
	job_updated: { name: 'Job Updated', description: 'A job changed (uncommon; most often a title change)' },
	job_deleted: { name: 'Job Deleted', description: 'A job was removed at its source' },
	signal: { name: 'Signal', description: 'An intent signal was detected' },
};

export const properties: INodeProperties[] = [
	{
		displayName: 'Registration',
		name: 'registration',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Manual',
				value: 'manual',
				description: 'You enter this node\'s URL and event types on the webhook settings page of the service\'s web application',
			},
			{
				name: 'Automatic',
				value: 'automatic',
				description:
					'The node registers its URL with the service when the workflow is published, and removes it when unpublished, through the service\'s webhook settings API ({app_url}/api/webhooks)',
			},
		],
		default: 'manual',
	},
	{
		displayName:
			`In the service's web application, open the webhook settings, paste this node's Production URL (under Webhook URLs above; with Options → URL Secret set, add ?${SECRET_QUERY_PARAMETER}= and the secret to its end), pick the same event types, leave the Secret Key blank (the service does not sign deliveries yet), and save. Then publish this workflow.`,
		name: 'manualNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { registration: ['manual'] } },
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		noDataExpression: true,
		options: WEBHOOK_EVENT_TYPES.map((value) => ({ value, ...EVENT_LABELS[value] })),
		default: [...WEBHOOK_EVENT_TYPES],
		description:
			'Which events start the workflow. Others are acknowledged (HTTP 200, so the service does not retry them) and dropped.',
	},
	...filterProperties,
	...outputProperty,
	{
		// Version 1: the sender checks and Output (1.1 has Output, Simplified, Raw, Selected Fields, instead; its Raw is the event data plus every envelope field).
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { '@version': [1] } },
		options: [
			allowedIpsOption,
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: [
					{
						name: 'Event Data',
						value: 'eventData',
						description:
							'The job or signal, plus event_type, webhook_event_id, webhook_created_at and webhook_updated_at',
					},
					{
						name: 'Whole Envelope',
						value: 'envelope',
						description: 'The delivery as sent: webhook_event_id, webhook_id, organization_id, event_type, event_data, created_at, updated_at',
					},
				],
				default: 'eventData',
			},
			urlSecretOption,
		],
	},
	{
		// Version 1.1: the sender checks (sender-checks.ts). Empty, as in every workflow saved before they existed: no check.
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { '@version': [{ _cnd: { gte: TRIGGER_OUTPUT_VERSION } }] } },
		options: [allowedIpsOption, urlSecretOption],
	},
];
