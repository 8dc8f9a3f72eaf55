/**
 * The webhook settings API that emulates the web application's settings page
 * (`{app_url}/api/webhooks`, an assumed path: contract/endpoints.ts): app routes like
 * subscriber upload (fault injection, the journal, the shared body parser),
 * authenticated by the bearer token like /v2. They read no data a cycle
 * changes, so they answer during a cycle. The settings and the deliveries
 * themselves are webhooks/'s; the delivery log is a control route (control.mts).
 */
import { HttpResponse, type HttpHandler } from 'msw';
import { LIMITS, webhookSettingInputSchema } from '../base/contract.mts';
import { parseJsonBody } from '../http/body.mts';
import { apiError } from '../http/respond.mts';
import { appRoute, authenticate, type AppCall, type HandlerContext } from '../http/route.mts';
import type { Account } from '../data/model.mts';
import type { WebhookSettingsStore } from '../webhooks/settings-store.mts';

/**
 * The ports fetch refuses to connect to: the "bad ports" of the Fetch standard,
 * https://fetch.spec.whatwg.org/#port-blocking (as of its 2024 additions, 4190 and 6679).
 * Node's fetch (undici) refuses them with "bad port" before connecting, so a webhook URL on
 * one of them could never be delivered to: the settings API refuses it. The only copy of the list.
 */
export const BLOCKED_PORTS: ReadonlySet<number> = new Set([
	1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
	119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
	989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The URL's port when fetch would refuse it (an http(s) URL without a port uses 80 or 443, never blocked), else undefined. */
function blockedPort(url: string): number | undefined {
	const { port } = new URL(url);
	return port !== '' && BLOCKED_PORTS.has(Number(port)) ? Number(port) : undefined;
}

export function webhookHandlers(context: HandlerContext, settings: WebhookSettingsStore, nowSeconds: () => number): HttpHandler[] {
	/** The call's account by its bearer token (noted for the journal), or the auth error. */
	const accountOf = (call: AppCall): Account | Response => {
		const account = authenticate(call.request, context.store);
		if (!(account instanceof Response)) call.accountId = account.account_id;
		return account;
	};
	const settingsOnly = { readsData: false };
	return [
		appRoute(context, 'listWebhooks', (call) => {
			const account = accountOf(call);
			if (account instanceof Response) return account;
			return HttpResponse.json({ data: settings.list(account.account_id) });
		}, settingsOnly),

		appRoute(context, 'createWebhook', async (call) => {
			const account = accountOf(call);
			if (account instanceof Response) return account;
			const body = await parseJsonBody(call.request, webhookSettingInputSchema, {
				fail: (message) => apiError(400, message),
				shape: '{"url", "event_types", "secret_key"?}',
				what: 'webhook setting',
			});
			if (body instanceof Response) return body;
			const port = blockedPort(body.url);
			if (port !== undefined) {
				return apiError(
					400,
					`Invalid webhook setting: url: port ${port} is one fetch refuses to connect to (a "bad port" of the Fetch standard), so no delivery could reach it: use another port`,
				);
			}
			if (settings.list(account.account_id).length >= LIMITS.maxWebhooksPerAccount) {
				return apiError(409, `At most ${LIMITS.maxWebhooksPerAccount} webhook settings per account: delete one first`);
			}
			return HttpResponse.json(settings.create(account.account_id, body, nowSeconds()), { status: 201 });
		}, settingsOnly),

		appRoute(context, 'deleteWebhook', (call) => {
			const account = accountOf(call);
			if (account instanceof Response) return account;
			if (!settings.remove(account.account_id, call.params.webhook_id)) {
				return apiError(404, `No webhook with id "${call.params.webhook_id}" in this account`);
			}
			return new HttpResponse(null, { status: 204 });
		}, settingsOnly),
	];
}
