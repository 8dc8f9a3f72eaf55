/**
 * Service failures as n8n errors, with messages a user can act on. Built only
 * from the status and the service's answer (secrets redacted), never from the
 * request (which carries the token).
 */
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';
import { ENDPOINTS, type Endpoint } from '../contract';
import { pathOf, type ServiceRequest } from './answers';
import { describeBody, htmlTitle, isHtml, statusLine } from './body-text';
import { redactText, type Secrets } from './redact';

/** What a failure means for what was asked (the message; absent: the service's own words) and what to do next. */
export interface NextStep {
	message?: string;
	description: string;
}

/** An answer as it came: status, status text and the body's text. */
export interface RawAnswer {
	status: number;
	statusText?: string;
	text: string;
}

/** The service's message: `message` (API errors) or `responseText` (subscriber upload, "Error '<reason>'"); an HTML page's title or the status line. */
export function serviceMessage(answer: RawAnswer): string | undefined {
	const text = answer.text.trim();
	if (text === '') return undefined;
	if (isHtml(text)) return htmlTitle(text) ?? statusLine(answer.status, answer.statusText);
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return text.slice(0, 500);
	}
	const { message, responseText } = (typeof body === 'object' && body !== null ? body : {}) as { message?: unknown; responseText?: unknown };
	if (typeof message === 'string') return message;
	if (typeof responseText === 'string') return responseText.replace(/^Error '(.*)'$/s, '$1');
	return text.slice(0, 500);
}

export function apiErrorFrom(node: INode, answer: RawAnswer, request: ServiceRequest, secrets: Secrets): NodeApiError {
	const { status } = answer;
	const raw = serviceMessage(answer);
	const said = raw === undefined ? undefined : redactText(raw, secrets);
	// Only the redacted message travels with the error (n8n stores the error response with the execution).
	const response: JsonObject = { status, message: said ?? '' };
	const options = { httpCode: String(status), description: said };
	const endpoint: Endpoint = ENDPOINTS[request.endpoint];
	if (status === 400 && endpoint.on === 'api' && said !== undefined && /token/i.test(said)) {
		return new NodeApiError(node, response, {
			...options,
			message: 'The service rejected the API token',
			description: `${said}. Check the API Token in the Job Signals API credential.`,
		});
	}
	if (status === 400 && endpoint.answer === 'upload') {
		return new NodeApiError(node, response, { ...options, message: `Subscriber upload refused: ${said ?? 'no reason given'}` });
	}
	if (status === 404) {
		const error = new NodeApiError(node, response, { ...options, message: said ?? `Not found: ${pathOf(request)}` });
		return endpoint.notFound ? explained(node, error, notFoundStep(endpoint.notFound, request.params ?? {})) : error;
	}
	if (status === 429) {
		return new NodeApiError(node, response, {
			...options,
			message: 'The service kept answering 429 (rate limit) after every retry',
			description:
				"Another workflow or client may be using the same token, or the credential's Requests per Minute is above what the account allows: lower it, or spread the workflows that share this account over time.",
		});
	}
	return new NodeApiError(node, response, { ...options, message: said ? `The service answered ${status}: ${said}` : `The service answered ${status}` });
}

/** A 2xx answer that is not what the contract promises: the run stops rather than go on with part of the data. */
export function invalidAnswerError(node: INode, request: ServiceRequest, problem: string): NodeApiError {
	const where = request.page === undefined ? '' : ` (${request.page})`;
	return new NodeApiError(node, { problem }, {
		message: `${request.operation}: the service's answer${where} does not match the API contract: ${problem}`,
		description:
			'The run stopped rather than return part of the data. A proxy between n8n and the service, or a change in the service, can cause this; running again may succeed.',
	});
}

/** A 2xx body that cannot be used at all (not JSON), described without its content beyond a few characters. */
export function unreadableBody(answer: RawAnswer, parseError: unknown): string {
	const reason = answer.text.trim() === '' || isHtml(answer.text) ? '' : ` (${(parseError as Error).message})`;
	return `the body is not JSON: ${describeBody(answer.text, answer.status, answer.statusText)}${reason}`;
}

export function unreachableError(node: INode, url: string, what: string, attempts: number): NodeApiError {
	return new NodeApiError(node, { code: what }, {
		message: `Could not reach the Job Signals service at ${new URL(url).origin}: ${what}`,
		description: `${attempts === 1 ? 'One attempt' : `${attempts} attempts`}. Check the URLs in the Job Signals API credential and that the service is reachable from n8n.`,
	});
}

/** An endpoint's 404 step with `{name}` filled from the path parameters (a list: the values tried, joined with "or"). */
export function notFoundStep(step: NextStep, params: Readonly<Record<string, string | readonly string[]>>): NextStep {
	const fill = (text: string) =>
		text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
			const value = params[name];
			return value === undefined ? whole : typeof value === 'string' ? value : value.join(' or ');
		});
	return { ...(step.message === undefined ? {} : { message: fill(step.message) }), description: fill(step.description) };
}

/** The failure said as `step` says it; only the service's (already secret-free) words travel with it. */
export function explained(node: INode, error: NodeApiError, step: NextStep, itemIndex?: number): NodeApiError {
	// The service's words: first in the error's messages (apiErrorFrom's response), also when explained before.
	const said = error.messages[0] ?? error.description ?? error.message;
	return new NodeApiError(node, { status: Number(error.httpCode), message: said }, {
		httpCode: error.httpCode ?? undefined,
		itemIndex,
		message: step.message ?? error.message,
		description: step.description,
	});
}
