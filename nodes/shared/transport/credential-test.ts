/**
 * The credential test: one GET of the account's collections (every account has
 * the jobs API; signals need an add-on). A method rather than a declarative
 * test because n8n reports a declarative test's failure by its status text
 * only ("Bad Request"), where the service says what is wrong ("Invalid API token").
 */
import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';
import { ENDPOINTS, getFollowingSameOrigin } from '../contract';
import { answerMessage, noAnswer } from '../credential-messages';
import { describeNetworkError } from './network';
import { redactText, secretsOf } from './redact';
import { refusedRedirectMessage, tokenTransportProblem } from './tls-only';

const TIMEOUT_MS = 30_000;

/**
 * The nodes' `methods.credentialTest`, found through each credential entry's testedBy. The credential entries themselves
 * stay literal in each node's description: the official lint (credential-test-required) reads them from the node's source.
 */
export const credentialTestMethods = { jobSignalsApiTest };

export async function jobSignalsApiTest(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const secrets = secretsOf(data);
	const baseUrl = String(data.baseUrl ?? '').trim().replace(/\/+$/, '');
	if (!/^https?:\/\//i.test(baseUrl)) return { status: 'Error', message: `API Base URL must start with http:// or https://, e.g. https://api.example.com/v2` };
	const url = `${baseUrl}${ENDPOINTS.collections.path}`;
	// The same check, on the exact URL, as every node request (request.ts): the token only over https, or plain http to this machine.
	const refused = tokenTransportProblem(url, 'API Base URL', baseUrl);
	if (refused !== undefined) return { status: 'Error', message: redactText(refused, secrets) };
	let response: Response;
	let text: string;
	try {
		// fetch: the only request helper n8n gives a credential test is its deprecated `request`. Redirects are
		// followed by the contract's loop, by the same rule as every node request (same origin only, at most MAX_REDIRECTS).
		const signal = AbortSignal.timeout(TIMEOUT_MS);
		const headers = { Authorization: `Bearer ${String(data.apiToken ?? '')}`, Accept: 'application/json' };
		const followed = await getFollowingSameOrigin(url, (target) => fetch(target, { headers, redirect: 'manual', signal }));
		if ('refused' in followed) return { status: 'Error', message: redactText(refusedRedirectMessage(followed.refused, 'API Base URL'), secrets) };
		response = followed.answer;
		text = await response.text();
	} catch (error) {
		return { status: 'Error', message: redactText(noAnswer(baseUrl, describeNetworkError(error, TIMEOUT_MS)), secrets) };
	}
	const message = answerMessage(baseUrl, { status: response.status, statusText: response.statusText, text });
	return message === undefined ? { status: 'OK', message: 'Connection successful' } : { status: 'Error', message: redactText(message, secrets) };
}
