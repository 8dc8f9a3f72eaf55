/**
 * POST {app_url}/api/subscribers/upload. The access key is the account's API
 * token, sent as `access_token` in the body. Rules (spec): each address is
 * validated, none is added twice, each is subscribed to all the account's job
 * tags, at most 100 per call, and a partial failure is still 200 `{}`. The mock
 * holds at most LIMITS.maxSubscribersPerAccount per account: an upload that would
 * pass it adds none and answers the upload's error.
 */
import { HttpResponse, type HttpHandler } from 'msw';
import { EMAIL_ADDRESS_PATTERN, LIMITS, subscriberUploadBodySchema } from '../base/contract.mts';
import { parseJsonBody } from '../http/body.mts';
import { uploadError } from '../http/respond.mts';
import { appRoute, type HandlerContext } from '../http/route.mts';

export function subscriberHandlers(context: HandlerContext, nowSeconds: () => number): HttpHandler[] {
	const { store } = context;
	return [
		appRoute(context, 'subscriberUpload', async (call) => {
			const { request } = call;
			const body = await parseJsonBody(request, subscriberUploadBodySchema, {
				fail: uploadError,
				shape: '{"email_addresses", "access_token"}',
				what: 'upload',
			});
			if (body instanceof Response) return body;
			const account = store.accountByToken(body.access_token);
			if (!account) return uploadError('Invalid access_token');
			call.accountId = account.account_id;
			const addresses = body.email_addresses.split(',').map((a) => a.trim()).filter((a) => a !== '');
			if (addresses.length === 0) return uploadError('No e-mail addresses given');
			if (addresses.length > LIMITS.maxAddressesPerUpload) {
				return uploadError(`At most ${LIMITS.maxAddressesPerUpload} addresses per call, got ${addresses.length}`);
			}
			const valid = addresses.filter((a) => EMAIL_ADDRESS_PATTERN.test(a));
			if (valid.length === 0) return uploadError('No valid e-mail address');
			// None twice (an address may repeat within the upload too); the rest are added together, saved in one transaction.
			const emails = new Set(valid.map((email) => email.toLowerCase()).filter((email) => !store.isSubscribed(account.account_id, email)));
			const held = store.subscriberCount(account.account_id);
			if (held + emails.size > LIMITS.maxSubscribersPerAccount) {
				return uploadError(`This account has ${held} subscribers and the upload adds ${emails.size}: the mock holds at most ${LIMITS.maxSubscribersPerAccount} per account (none of this upload was added; POST /__mock/reset empties the list)`);
			}
			const now = nowSeconds();
			await store.addSubscribers([...emails].map((email) => ({ account_id: account.account_id, email, tags: [...account.job_tags], created_at: now })));
			return HttpResponse.json({});
		}),
	];
}
