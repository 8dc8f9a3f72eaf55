/**
 * Every call to the service goes through here: the credential's bearer header
 * (httpRequestWithAuthentication), pacing, retries of 429s and transient
 * failures, and the translation of failures into n8n errors.
 */
import {
	NodeApiError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type ILoadOptionsFunctions,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';
import { CHOICES } from '../contract';
import { apiErrorFrom, unreachableError } from './errors';
import { hasServerWait, recordBudget, waitForTurn } from './pacing';
import { backoffMs, RETRY_POLICY } from './retry-policy';

export const CREDENTIAL_TYPE = 'jobSignalsApi';

export type ServiceContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface ServiceRequest {
	method: IHttpRequestMethods;
	/** `api`: under the credential's base URL (…/v2); `app`: under its app URL. */
	on: 'api' | 'app';
	/** Already filled (fillPath). */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Say whether a retry after a 5xx or a lost connection is safe. */
	idempotent: boolean;
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export async function serviceRequest(this: ServiceContext, request: ServiceRequest): Promise<IDataObject> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const root = trimSlash(String((request.on === 'api' ? credentials.baseUrl : credentials.appUrl) ?? ''));
	if (!/^https?:\/\/[^/\s]+/i.test(root)) {
		throw new NodeApiError(this.getNode(), {} as JsonObject, {
			message: `The credential's ${request.on === 'api' ? 'API Base URL' : 'App URL'} is not an http(s) URL`,
			description: 'Edit the Job Signals API credential: the base URL looks like https://<host>/v2, the app URL like https://<host>.',
		});
	}
	const url = `${root}${request.path}`;
	// One budget per account: keyed by where the calls go and the token that pays for them.
	// Calls outside the documented limit get a budget of their own, followed only once the service reports one.
	const documentedLimit = request.on === 'api' || CHOICES.rateLimitAppliesToAppUrl;
	const budgetRoot = documentedLimit ? trimSlash(String(credentials.baseUrl)) : root;
	const budgetKey = `${budgetRoot}\n${String(credentials.apiToken)}`;
	let rateLimited = 0;
	let transient = 0;
	for (;;) {
		await waitForTurn(budgetKey, documentedLimit);
		let response: FullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
				method: request.method,
				url,
				qs: request.qs,
				body: request.body,
				json: true,
				arrayFormat: 'repeat',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: RETRY_POLICY.requestTimeoutMs,
			})) as FullResponse;
		} catch (error) {
			if (request.idempotent && transient < RETRY_POLICY.maxTransientRetries) {
				await sleep(backoffMs(transient++));
				continue;
			}
			throw unreachableError(this.getNode(), url, error);
		}
		const { statusCode: status, headers, body } = response;
		recordBudget(budgetKey, headers, status);
		if (status >= 200 && status < 300) return (body ?? {}) as IDataObject;
		if (status === 429 && rateLimited < RETRY_POLICY.maxRateLimitRetries) {
			// The pacer holds the next attempt until Retry-After has passed; without one, back off here.
			if (!hasServerWait(budgetKey)) await sleep(backoffMs(rateLimited));
			rateLimited++;
			continue;
		}
		if (status >= 500 && request.idempotent && transient < RETRY_POLICY.maxTransientRetries) {
			await sleep(backoffMs(transient++));
			continue;
		}
		throw apiErrorFrom(this.getNode(), status, body, request);
	}
}
