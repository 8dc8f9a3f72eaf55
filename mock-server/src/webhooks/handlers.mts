/**
 * HTTP side of the webhooks module: the settings API that emulates the web
 * application's settings page (`{app_url}/api/webhooks`, an assumed path, see
 * APP_PATHS) and the mock's delivery log (`/__mock/deliveries`). The settings
 * routes are app routes like subscriber upload: fault injection, the shared
 * body parser.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { APP_PATHS, LIMITS, MOCK_CONTROL_PATHS } from '../../../contract/api';
import { webhookSettingInputSchema } from '../../../contract/schemas';
import { parseJsonBody } from '../http/body.mts';
import type { Faults } from '../http/faults.mts';
import type { Journal } from '../http/journal.mts';
import { appRoute } from '../http/route.mts';
import { blockedPort } from './blocked-ports.mts';
import type { DeliveryEngine } from './delivery-engine.mts';
import type { WebhookSettingsStore } from './settings-store.mts';

/** Resolves the request's bearer token to an account, or answers the auth error itself. */
export type AuthenticateRequest = (request: Request) => Promise<{ accountId: string } | Response>;

export interface WebhookHandlerOptions {
	settings: WebhookSettingsStore;
	engine: DeliveryEngine;
	faults: Faults;
	/** The service's request journal, which records the settings calls like every app route (default: none). */
	journal?: Journal;
	authenticate: AuthenticateRequest;
	/** Builds the service's JSON error body (the same shape as every /v2 error). */
	errorResponse: (status: number, message: string) => Response;
	nowSeconds: () => number;
}

export function webhookHandlers(options: WebhookHandlerOptions): HttpHandler[] {
	const { settings, engine, faults, journal, authenticate, errorResponse, nowSeconds } = options;
	return [
		appRoute({ faults, journal }, 'get', APP_PATHS.webhooks, async ({ request }) => {
			const account = await authenticate(request);
			if (account instanceof Response) return account;
			return HttpResponse.json({ data: settings.list(account.accountId) });
		}),

		appRoute({ faults, journal }, 'post', APP_PATHS.webhooks, async ({ request }) => {
			const account = await authenticate(request);
			if (account instanceof Response) return account;
			const body = await parseJsonBody(request, webhookSettingInputSchema, {
				fail: (message) => errorResponse(400, message),
				shape: '{"url", "event_types", "secret_key"?}',
				what: 'webhook setting',
			});
			if (body instanceof Response) return body;
			const port = blockedPort(body.url);
			if (port !== undefined) {
				return errorResponse(
					400,
					`Invalid webhook setting: url: port ${port} is one fetch refuses to connect to (a "bad port" of the Fetch standard), so no delivery could reach it: use another port`,
				);
			}
			if (settings.list(account.accountId).length >= LIMITS.maxWebhooksPerAccount) {
				return errorResponse(409, `At most ${LIMITS.maxWebhooksPerAccount} webhook settings per account: delete one first`);
			}
			return HttpResponse.json(settings.create(account.accountId, body, nowSeconds()), { status: 201 });
		}),

		appRoute({ faults, journal }, 'delete', APP_PATHS.webhookById, async ({ request, params }) => {
			const account = await authenticate(request);
			if (account instanceof Response) return account;
			if (!settings.remove(account.accountId, params.webhook_id)) {
				return errorResponse(404, `No webhook with id "${params.webhook_id}" in this account`);
			}
			return new HttpResponse(null, { status: 204 });
		}),

		http.get(`*${MOCK_CONTROL_PATHS.deliveries}`, () => HttpResponse.json({ data: engine.deliveries() })),
	];
}
