/** POST {app_url}/api/subscribers/upload: one batch of addresses (at most LIMITS.maxAddressesPerUpload). */
import { APP_PATHS } from '../contract';
import { serviceRequest, type ServiceContext } from '../transport/request';

export async function uploadSubscribers(context: ServiceContext, operation: string, addresses: string[], accessToken: string): Promise<void> {
	await serviceRequest(context, {
		method: 'POST',
		on: 'app',
		path: APP_PATHS.subscriberUpload,
		body: { email_addresses: addresses.join(','), access_token: accessToken },
		// The service never subscribes an address twice, so a retried call cannot duplicate anything.
		idempotent: true,
		answer: 'upload',
		operation,
	});
}
