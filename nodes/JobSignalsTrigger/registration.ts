/**
 * Optional self-registration through the webhook settings endpoints
 * (`{app_url}/api/webhooks`, the project's assumed emulation of the web
 * application's settings page, see README). With manual registration, the
 * default, these methods do nothing: the user enters the URL in the web app.
 *
 * No ghost entries: an entry is this node's when its URL is this node's
 * webhook URL. checkExists keeps one entry with the selected event types and
 * removes any other entry for the URL (left by an earlier version of the
 * workflow); delete removes every entry for the URL.
 */
import {
	NodeApiError,
	type IDataObject,
	type IHookFunctions,
	type IHttpRequestMethods,
	type JsonObject,
} from 'n8n-workflow';
import { APP_PATHS, fillPath } from '../../mock-server/src/contract/api';

interface WebhookSetting {
	webhook_id: string;
	url: string;
	event_types: string[];
}

export async function checkExists(this: IHookFunctions): Promise<boolean> {
	if (!registersItself(this)) return true;
	const url = this.getNodeWebhookUrl('default');
	const wanted = [...(this.getNodeParameter('events', []) as string[])].sort().join(',');
	const ours = (await listSettings(this)).filter((setting) => setting.url === url);
	const match = ours.find((setting) => [...setting.event_types].sort().join(',') === wanted);
	for (const stale of ours) {
		if (stale !== match) await removeSetting(this, stale.webhook_id);
	}
	if (match === undefined) return false;
	this.getWorkflowStaticData('node').webhookId = match.webhook_id;
	return true;
}

export async function create(this: IHookFunctions): Promise<boolean> {
	if (!registersItself(this)) return true;
	const created = (await call(this, 'POST', APP_PATHS.webhooks, {
		url: this.getNodeWebhookUrl('default'),
		event_types: this.getNodeParameter('events', []) as string[],
	})) as WebhookSetting;
	this.getWorkflowStaticData('node').webhookId = created.webhook_id;
	return true;
}

export async function remove(this: IHookFunctions): Promise<boolean> {
	if (!registersItself(this)) return true;
	const staticData = this.getWorkflowStaticData('node');
	const url = this.getNodeWebhookUrl('default');
	for (const setting of await listSettings(this)) {
		if (setting.url === url || setting.webhook_id === staticData.webhookId) {
			await removeSetting(this, setting.webhook_id);
		}
	}
	delete staticData.webhookId;
	return true;
}

function registersItself(context: IHookFunctions): boolean {
	return context.getNodeParameter('registration', 'manual') === 'automatic';
}

async function listSettings(context: IHookFunctions): Promise<WebhookSetting[]> {
	const listed = (await call(context, 'GET', APP_PATHS.webhooks)) as { data?: unknown };
	return Array.isArray(listed.data) ? (listed.data as WebhookSetting[]) : [];
}

/** Already gone (404) counts as removed: someone deleted it in the web app. */
async function removeSetting(context: IHookFunctions, webhookId: string): Promise<void> {
	await call(context, 'DELETE', fillPath(APP_PATHS.webhookById, { webhook_id: webhookId }), undefined, [404]);
}

async function call(
	context: IHookFunctions,
	method: IHttpRequestMethods,
	path: string,
	body?: IDataObject,
	acceptedErrors: number[] = [],
): Promise<unknown> {
	const credentials = await context.getCredentials('jobSignalsApi');
	const appUrl = String(credentials.appUrl ?? '').replace(/\/+$/, '');
	try {
		return await context.helpers.httpRequestWithAuthentication.call(context, 'jobSignalsApi', {
			method,
			url: `${appUrl}${path}`,
			body,
			json: true,
		});
	} catch (error) {
		const status = httpStatusOf(error);
		if (status !== undefined && acceptedErrors.includes(status)) return undefined;
		// Built from the status and the service's message only: the request (and its token) stays out.
		throw new NodeApiError(context.getNode(), { message: messageOf(error) } as JsonObject, {
			message: `The webhook settings request (${method} ${path}) failed`,
			description: messageOf(error),
			httpCode: status === undefined ? undefined : String(status),
		});
	}
}

function httpStatusOf(error: unknown): number | undefined {
	const candidate = error as { httpCode?: unknown; response?: { status?: unknown }; status?: unknown };
	for (const value of [candidate.httpCode, candidate.response?.status, candidate.status]) {
		const status = Number(value);
		if (Number.isInteger(status) && status >= 100) return status;
	}
	return undefined;
}

/** The service's own message when there is one; n8n's request helper keeps the response under `cause`. */
function messageOf(error: unknown): string {
	const candidate = error as {
		cause?: { response?: { data?: { message?: unknown } } };
		response?: { data?: { message?: unknown } };
		description?: unknown;
	};
	for (const value of [
		candidate.cause?.response?.data?.message,
		candidate.response?.data?.message,
		candidate.description,
	]) {
		if (typeof value === 'string' && value !== '') return value;
	}
	return error instanceof Error ? error.message : 'unknown error';
}
