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
import { NodeApiError, type IDataObject, type IHookFunctions, type IHttpRequestMethods, type JsonObject } from 'n8n-workflow';
import { APP_PATHS, fillPath } from '../shared/contract';
import type { AnswerName } from '../shared/transport/answers';
import { serviceRequest } from '../shared/transport/request';

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
	const created = (await call(this, 'POST', APP_PATHS.webhooks, 'webhookSetting', {
		url: this.getNodeWebhookUrl('default'),
		event_types: this.getNodeParameter('events', []) as string[],
	})) as unknown as WebhookSetting;
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
	const listed = await call(context, 'GET', APP_PATHS.webhooks, 'webhookSettings');
	return listed.data as unknown as WebhookSetting[];
}

/** Already gone (404) counts as removed: someone deleted it in the web app. */
async function removeSetting(context: IHookFunctions, webhookId: string): Promise<void> {
	await call(context, 'DELETE', fillPath(APP_PATHS.webhookById, { webhook_id: webhookId }), 'none', undefined, [404]);
}

/** Through the action node's transport: the same auth, pacing, retries, answer checks and secret-free errors. */
async function call(
	context: IHookFunctions,
	method: IHttpRequestMethods,
	path: string,
	answer: AnswerName | 'none',
	body?: IDataObject,
	acceptStatuses?: number[],
): Promise<IDataObject> {
	const operation = `The webhook settings request (${method} ${path})`;
	try {
		return await serviceRequest.call(context, {
			method,
			on: 'app',
			path,
			body,
			// Listing and deleting can be repeated safely; a repeated create could leave two entries.
			idempotent: method !== 'POST',
			answer,
			operation,
			acceptStatuses,
		});
	} catch (error) {
		// Say which registration step failed; the transport's message (already secret-free) says why.
		const failure = error instanceof NodeApiError ? error : new NodeApiError(context.getNode(), error as JsonObject);
		failure.message = `${operation} failed: ${failure.message}`;
		throw failure;
	}
}
