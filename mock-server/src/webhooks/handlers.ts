/**
 * HTTP side of the webhooks module: the settings API that emulates the web
 * application's settings page (`{app_url}/api/webhooks`, an assumed path, see
 * APP_PATHS) and the mock's delivery log (`/__mock/deliveries`).
 * Handlers match any origin (`*` prefix) so they work under setupServer and
 * behind the standalone server alike.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { APP_PATHS, MOCK_CONTROL_PATHS } from '../contract/api';
import { webhookSettingInputSchema } from '../contract/schemas';
import type { DeliveryEngine } from './delivery-engine';
import type { WebhookSettingsStore } from './settings-store';

/** Resolves the request's bearer token to an account, or answers the auth error itself. */
export type AuthenticateRequest = (request: Request) => Promise<{ accountId: string } | Response>;

export interface WebhookHandlerOptions {
	settings: WebhookSettingsStore;
	engine: DeliveryEngine;
	authenticate: AuthenticateRequest;
	/** Builds the service's JSON error body (the same shape as every /v2 error). */
	errorResponse: (status: number, message: string) => Response;
	nowSeconds: () => number;
}

export function webhookHandlers(options: WebhookHandlerOptions): HttpHandler[] {
	const { settings, engine, authenticate, errorResponse, nowSeconds } = options;
	return [
		http.get(`*${APP_PATHS.webhooks}`, async ({ request }) => {
			const account = await authenticate(request);
			if (account instanceof Response) return account;
			return HttpResponse.json({ data: settings.list(account.accountId) });
		}),

		http.post(`*${APP_PATHS.webhooks}`, async ({ request }) => {
			const account = await authenticate(request);
			if (account instanceof Response) return account;
			let body: unknown;
			try {
				body = JSON.parse(await request.text());
			} catch {
				return errorResponse(400, 'The body must be JSON: {"url", "event_types", "secret_key"?}');
			}
			const parsed = webhookSettingInputSchema.safeParse(body);
			if (!parsed.success) {
				const issue = parsed.error.issues[0];
				const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
				return errorResponse(400, `Invalid webhook setting: ${where}${issue.message}`);
			}
			return HttpResponse.json(settings.create(account.accountId, parsed.data, nowSeconds()), {
				status: 201,
			});
		}),

		http.delete(`*${APP_PATHS.webhookById}`, async ({ request, params }) => {
			const account = await authenticate(request);
			if (account instanceof Response) return account;
			const webhookId = String(params.webhook_id);
			if (!settings.remove(account.accountId, webhookId)) {
				return errorResponse(404, `No webhook with id "${webhookId}" in this account`);
			}
			return new HttpResponse(null, { status: 204 });
		}),

		http.get(`*${MOCK_CONTROL_PATHS.deliveries}`, () => HttpResponse.json({ data: engine.deliveries() })),
	];
}
