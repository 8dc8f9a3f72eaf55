/**
 * Optional self-registration through the webhook settings endpoints
 * (`{app_url}/api/webhooks`, the project's assumed emulation of the web
 * application's settings page: docs/trigger.md, "Self-registration (Automatic)"). With manual registration, the
 * default, these methods do nothing: the user enters the URL in the web app.
 *
 * No ghost entries: an entry is this node's when its URL is this node's
 * webhook URL, with or without a query. The URL registered carries the URL
 * Secret when one is set (sender-checks.ts, deliveryUrl). checkExists keeps one
 * entry with that exact URL and the selected event types and removes any other
 * entry for the node's URL (left by an earlier version of the workflow, or
 * registered with an earlier secret); delete removes every entry for the URL.
 * The node runs these methods through keepingSecretOut (sender-checks.ts): no
 * error they raise carries the secret, also where the service echoes the URL.
 */
import { NodeApiError, type IHookFunctions, type JsonObject } from 'n8n-workflow';
import { ENDPOINTS } from '../shared/contract';
import { pathOf, target, type AnswerTypes, type ServiceRequest } from '../shared/transport/answers';
import { serviceRequest } from '../shared/transport/request';
import { deliveryUrl, isDeliveryUrlOf, urlSecretOf } from './sender-checks';

type Setting = AnswerTypes['webhookSetting'];

export async function checkExists(this: IHookFunctions): Promise<boolean> {
	if (!registersItself(this)) return true;
	const webhookUrl = this.getNodeWebhookUrl('default') ?? '';
	const url = deliveryUrl(webhookUrl, urlSecretOf(this));
	const wanted = [...selectedEvents(this)].sort().join(',');
	const ours = (await listSettings(this)).filter((setting) => isDeliveryUrlOf(setting.url, webhookUrl));
	const match = ours.find((setting) => setting.url === url && [...setting.event_types].sort().join(',') === wanted);
	for (const stale of ours) {
		if (stale !== match) await removeSetting(this, stale.webhook_id);
	}
	if (match === undefined) return false;
	this.getWorkflowStaticData('node').webhookId = match.webhook_id;
	return true;
}

export async function create(this: IHookFunctions): Promise<boolean> {
	if (!registersItself(this)) return true;
	const url = deliveryUrl(this.getNodeWebhookUrl('default') ?? '', urlSecretOf(this));
	const created = await step(this, { endpoint: 'createWebhook', body: { url, event_types: selectedEvents(this) } });
	this.getWorkflowStaticData('node').webhookId = created.webhook_id;
	return true;
}

export async function remove(this: IHookFunctions): Promise<boolean> {
	if (!registersItself(this)) return true;
	const staticData = this.getWorkflowStaticData('node');
	const webhookUrl = this.getNodeWebhookUrl('default') ?? '';
	for (const setting of await listSettings(this)) {
		if (isDeliveryUrlOf(setting.url, webhookUrl) || setting.webhook_id === staticData.webhookId) {
			await removeSetting(this, setting.webhook_id);
		}
	}
	delete staticData.webhookId;
	return true;
}

function registersItself(context: IHookFunctions): boolean {
	return context.getNodeParameter('registration', 'manual') === 'automatic';
}

function selectedEvents(context: IHookFunctions): string[] {
	const events = context.getNodeParameter('events', []);
	return Array.isArray(events) ? events.map(String) : [];
}

async function listSettings(context: IHookFunctions): Promise<Setting[]> {
	return (await step(context, { endpoint: 'listWebhooks' })).data;
}

/** Already gone (the endpoint accepts a 404) counts as deleted: someone removed it in the web app. */
async function removeSetting(context: IHookFunctions, webhookId: string): Promise<void> {
	await step(context, target('deleteWebhook', { webhook_id: webhookId }));
}

type SettingsEndpoint = 'listWebhooks' | 'createWebhook' | 'deleteWebhook';

/** One registration request, through the shared transport (auth, pacing, retries, answer checks, secret-free errors); its error says which step failed. */
async function step<E extends SettingsEndpoint>(context: IHookFunctions, request: Omit<ServiceRequest<E>, 'operation'>) {
	const operation = `The webhook settings request (${ENDPOINTS[request.endpoint].method} ${pathOf(request)})`;
	try {
		return await serviceRequest(context, { ...request, operation });
	} catch (error) {
		// The transport's message (already secret-free) says why.
		const failure = error instanceof NodeApiError ? error : new NodeApiError(context.getNode(), error as JsonObject);
		failure.message = `${operation} failed: ${failure.message}`;
		throw failure;
	}
}
