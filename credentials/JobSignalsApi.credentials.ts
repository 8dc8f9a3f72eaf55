import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

export class JobSignalsApi implements ICredentialType {
	name = 'jobSignalsApi';

	displayName = 'Job Signals API';

	icon: Icon = { light: 'file:../nodes/JobSignals/jobSignals.svg', dark: 'file:../nodes/JobSignals/jobSignals.dark.svg' };

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-job-signals#credential-job-signals-api';

	properties: INodeProperties[] = [
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Created in the service\'s web application after login, or obtained from the provider',
		},
		{
			displayName: 'API Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com/v2',
			description: 'The API root including the version segment, in the form https://<host>/v2, as the service\'s documentation or account page gives it',
		},
		{
			displayName: 'App URL',
			name: 'appUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://app.example.com',
			description: 'Address of the service\'s web application, where you log in (used for subscriber upload and webhook settings)',
		},
		{
			displayName: 'Subscriber Upload Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'The access_token sent in the body of subscriber uploads (the spec calls it the API access key). Leave empty to use the API token.',
		},
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 60,
			description:
				'The account\'s rate limit (60 unless the provider raised it on request). Used only while the service reports no budget in its answers; when it does, the node follows what it says.',
		},
	];

	// Bearer header on every request made with httpRequestWithAuthentication.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: { Authorization: '=Bearer {{$credentials.apiToken}}' },
		},
	};
}
