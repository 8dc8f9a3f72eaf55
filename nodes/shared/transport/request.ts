/**
 * Every call to the service goes through here: tokens only over TLS and to
 * the credential's own origin (tls-only.ts), the credential's bearer header
 * (httpRequestWithAuthentication), pacing, retries of 429s and transient
 * failures, the check of every answer against the contract (answers.ts),
 * secrets kept out of what the service says, and the translation of failures
 * into n8n errors.
 */
import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type ICredentialDataDecryptedObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
} from 'n8n-workflow';
import { ANSWERS, CHOICES, ENDPOINTS, LIMITS, REDIRECT_STATUSES, redirectTarget, shownUrl, type Endpoint, type EndpointName } from '../contract';
import { pathOf, type AnswerOf, type ServiceRequest } from './answers';
import { problemIn } from './check-answer';
import { apiErrorFrom, invalidAnswerError, unreachableError, unreadableBody, type RawAnswer } from './errors';
import { describeNetworkError } from './network';
import { hasServerWait, recordBudget, requestDone, waitForTurn } from './pacing';
import { containsSecret, redactDeep, redactText, secretsOf, type Secrets } from './redact';
import { backoffMs, RETRY_POLICY } from './retry-policy';
import { redirectProblem, tokenTransportProblem } from './tls-only';

export const CREDENTIAL_TYPE = 'jobSignalsApi';

export type ServiceContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IHookFunctions;

interface FullResponse {
	statusCode: number;
	statusMessage?: string;
	headers: Record<string, unknown>;
	body: unknown;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The credential, read once per node run (per context) and handed to the
 * request helper: n8n loads and decrypts a credential on every getCredentials
 * call, which the helper otherwise repeats for every page of a walk.
 */
const credentialsByContext = new WeakMap<ServiceContext, Promise<ICredentialDataDecryptedObject>>();

export function serviceCredentials(context: ServiceContext): Promise<ICredentialDataDecryptedObject> {
	let credentials = credentialsByContext.get(context);
	if (!credentials) {
		credentials = context.getCredentials(CREDENTIAL_TYPE);
		credentialsByContext.set(context, credentials);
	}
	return credentials;
}

/** The credential's Requests per Minute; credentials saved before the field existed get the documented limit. */
export function requestsPerMinute(credentials: ICredentialDataDecryptedObject): number {
	const value = Number(credentials.requestsPerMinute);
	return Number.isInteger(value) && value >= 1 ? value : LIMITS.requestsPerMinute;
}

/** Sends `request` to its endpoint (contract/endpoints.ts) and returns its answer once the endpoint's rule passed. */
export async function serviceRequest<E extends EndpointName>(context: ServiceContext, request: ServiceRequest<E>): Promise<AnswerOf<E>> {
	const endpoint: Endpoint = ENDPOINTS[request.endpoint];
	const credentials = await serviceCredentials(context);
	const reference = context.getNode().credentials?.[CREDENTIAL_TYPE];
	const credentialsDecrypted = { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data: credentials };
	const root = trimSlash(String((endpoint.on === 'api' ? credentials.baseUrl : credentials.appUrl) ?? ''));
	if (!/^https?:\/\/[^/\s]+/i.test(root)) {
		throw new NodeApiError(context.getNode(), {}, {
			message: `The credential's ${endpoint.on === 'api' ? 'API Base URL' : 'App URL'} is not an http(s) URL`,
			description: 'Edit the Job Signals API credential: the base URL looks like https://<host>/v2, the app URL like https://<host>.',
		});
	}
	const url = `${root}${pathOf(request)}`;
	const secrets = secretsOf(credentials);
	// Before anything is sent, on the exact URL sent: tokens only over https, or plain http to this machine (tls-only.ts).
	const field = endpoint.on === 'api' ? 'API Base URL' : 'App URL';
	const refused = tokenTransportProblem(url, field, root);
	if (refused !== undefined) {
		throw new NodeOperationError(context.getNode(), redactText(refused, secrets), { description: `Edit the ${field} in the Job Signals API credential.` });
	}
	// One budget per account: keyed by where the calls go and the token that pays for them.
	// Calls outside the documented limit get a budget of their own, followed only once the service reports one.
	const documentedLimit = endpoint.on === 'api' || CHOICES.rateLimitAppliesToAppUrl;
	const budgetRoot = documentedLimit ? trimSlash(String(credentials.baseUrl)) : root;
	const budgetKey = `${budgetRoot}\n${String(credentials.apiToken)}`;
	const perMinute = requestsPerMinute(credentials);
	let rateLimited = 0;
	let transient = 0;
	// Where the next attempt goes: the URL checked above, or a same-origin redirect's target (its query in it).
	let target = { url, qs: request.qs };
	let redirects = 0;
	for (;;) {
		await waitForTurn(budgetKey, documentedLimit, perMinute);
		let response: FullResponse;
		try {
			response = (await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, {
				method: endpoint.method,
				url: target.url,
				qs: target.qs,
				body: request.body,
				json: true,
				// The body as text: parsed here, so that a body that is not JSON is reported rather than passed on as a string.
				encoding: 'text',
				arrayFormat: 'repeat',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: RETRY_POLICY.requestTimeoutMs,
				// Redirects are followed below, same origin only: the HTTP client under n8n's helper (follow-redirects)
				// keeps the Authorization header on a redirect to a sub-domain, whatever n8n is told.
				disableFollowRedirect: true,
			}, { credentialsDecrypted })) as FullResponse;
		} catch (error) {
			requestDone(budgetKey);
			if (endpoint.idempotent && transient < RETRY_POLICY.maxTransientRetries) {
				await sleep(backoffMs(transient++));
				continue;
			}
			const what = redactText(describeNetworkError(error, RETRY_POLICY.requestTimeoutMs), secrets);
			throw unreachableError(context.getNode(), url, what, transient + 1);
		}
		const { statusCode: status, headers } = response;
		const answer: RawAnswer = { status, statusText: response.statusMessage, text: textOf(response.body) };
		try {
			recordBudget(budgetKey, headers, status);
		} finally {
			requestDone(budgetKey);
		}
		if (status >= 200 && status < 300) return readAnswer(context, request, endpoint.answer, answer, secrets);
		const redirect = REDIRECT_STATUSES.includes(status) ? redirectTarget(target.url, headerText(headers.location)) : undefined;
		if (redirect !== undefined) {
			const problem = redirectProblem({ status, from: target.url, to: redirect, method: endpoint.method, followed: redirects }, field);
			if (problem !== undefined) {
				const location = redactText(shownUrl(redirect.url), secrets);
				throw new NodeApiError(context.getNode(), { status, location }, {
					message: redactText(problem, secrets),
					httpCode: String(status),
					description: `Check the ${field} in the Job Signals API credential.`,
				});
			}
			target = { url: redirect.url, qs: undefined };
			redirects++;
			continue;
		}
		if (endpoint.acceptStatuses?.includes(status)) return {} as AnswerOf<E>;
		if (status === 429 && rateLimited < RETRY_POLICY.maxRateLimitRetries) {
			// The pacer holds the next attempt until Retry-After has passed; without one, back off here.
			if (!hasServerWait(budgetKey)) await sleep(backoffMs(rateLimited));
			rateLimited++;
			continue;
		}
		if (status >= 500 && endpoint.idempotent && transient < RETRY_POLICY.maxTransientRetries) {
			await sleep(backoffMs(transient++));
			continue;
		}
		throw apiErrorFrom(context.getNode(), answer, request, secrets);
	}
}

/** A header's value as text (the helper gives a repeated header as an array). */
function headerText(value: unknown): string | undefined {
	return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

/** The body as text, whatever the helper made of it (text, as asked; a Buffer or nothing on some paths). */
function textOf(body: unknown): string {
	if (typeof body === 'string') return body;
	if (body === undefined || body === null) return '';
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	return JSON.stringify(body);
}

/**
 * A 2xx answer, parsed and checked against its rule; secrets in it are redacted before it becomes output.
 * The one place an answer gets its type: the rule it passed is the contract's (contract/answers.ts).
 */
function readAnswer<E extends EndpointName>(context: ServiceContext, request: ServiceRequest<E>, rule: Endpoint['answer'], answer: RawAnswer, secrets: Secrets): AnswerOf<E> {
	if (rule === 'none') return {} as AnswerOf<E>;
	const fail = (problem: string) => invalidAnswerError(context.getNode(), request, redactText(problem, secrets));
	let body: unknown;
	try {
		body = JSON.parse(answer.text);
	} catch (error) {
		throw fail(unreadableBody({ ...answer, text: redactText(answer.text, secrets) }, error));
	}
	const problem = problemIn(body, ANSWERS[rule]);
	if (problem) throw fail(problem);
	// One scan of the raw text; the parsed answer is rewritten only when a secret is really in it.
	return (containsSecret(answer.text, secrets) ? redactDeep(body, secrets) : body) as AnswerOf<E>;
}
