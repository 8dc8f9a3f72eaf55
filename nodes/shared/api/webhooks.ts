/**
 * The webhook settings endpoints under the app URL ({app_url}/api/webhooks: the
 * project's assumed emulation of the web application's settings page,
 * docs/assumptions). Listing and deleting can be repeated safely; a repeated
 * create could leave two entries, so it is never retried.
 */
import { APP_PATHS, fillPath } from '../contract';
import type { AnswerTypes } from '../transport/answers';
import { serviceRequest, type ServiceContext } from '../transport/request';

export type WebhookSettingAnswer = AnswerTypes['webhookSetting'];

export async function listWebhookSettings(context: ServiceContext, operation: string): Promise<WebhookSettingAnswer[]> {
	const listed = await serviceRequest(context, { method: 'GET', on: 'app', path: APP_PATHS.webhooks, idempotent: true, answer: 'webhookSettings', operation });
	return listed.data;
}

export async function createWebhookSetting(context: ServiceContext, operation: string, url: string, eventTypes: string[]): Promise<WebhookSettingAnswer> {
	return await serviceRequest(context, {
		method: 'POST',
		on: 'app',
		path: APP_PATHS.webhooks,
		body: { url, event_types: eventTypes },
		idempotent: false,
		answer: 'webhookSetting',
		operation,
	});
}

/** Already gone (404) counts as deleted: someone removed it in the web app. */
export async function deleteWebhookSetting(context: ServiceContext, operation: string, webhookId: string): Promise<void> {
	const path = fillPath(APP_PATHS.webhookById, { webhook_id: webhookId });
	await serviceRequest(context, { method: 'DELETE', on: 'app', path, idempotent: true, answer: 'none', operation, acceptStatuses: [404] });
}
