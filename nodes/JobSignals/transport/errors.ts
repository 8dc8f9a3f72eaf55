/**
 * Service failures as n8n errors, with messages a user can act on. Built only
 * from the status and the service's answer, never from the request (which
 * carries the token).
 */
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';
import type { ServiceRequest } from './request';

/** The service's message: `message` (API errors) or `responseText` (subscriber upload, "Error '<reason>'"). */
function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 500);
	if (typeof body !== 'object' || body === null) return undefined;
	const { message, responseText } = body as { message?: unknown; responseText?: unknown };
	if (typeof message === 'string') return message;
	if (typeof responseText === 'string') return responseText.replace(/^Error '(.*)'$/s, '$1');
	return undefined;
}

export function apiErrorFrom(node: INode, status: number, body: unknown, request: ServiceRequest): NodeApiError {
	const said = serviceMessage(body);
	const response = (typeof body === 'object' && body !== null ? body : { body: said ?? '' }) as JsonObject;
	const options = { httpCode: String(status), description: said };
	if (status === 400 && request.on === 'api' && said !== undefined && /token/i.test(said)) {
		return new NodeApiError(node, response, {
			...options,
			message: 'The service rejected the API token',
			description: `${said}. Check the API Token in the Job Signals API credential.`,
		});
	}
	if (status === 400 && request.on === 'app') {
		return new NodeApiError(node, response, { ...options, message: `Subscriber upload refused: ${said ?? 'no reason given'}` });
	}
	if (status === 404) {
		return new NodeApiError(node, response, { ...options, message: said ?? `Not found: ${request.path}` });
	}
	if (status === 429) {
		return new NodeApiError(node, response, {
			...options,
			message: 'The service kept answering 429 (rate limit) after every retry',
			description: 'The account allows 60 requests per minute. Another workflow or client may be using the same token.',
		});
	}
	return new NodeApiError(node, response, { ...options, message: said ? `The service answered ${status}: ${said}` : `The service answered ${status}` });
}

export function unreachableError(node: INode, url: string, error: unknown): NodeApiError {
	const code = (error as { code?: unknown })?.code;
	const reason = typeof code === 'string' ? code : 'no answer';
	return new NodeApiError(node, { code: reason } as JsonObject, {
		message: `Could not reach the Job Signals service at ${new URL(url).origin} (${reason})`,
		description: 'Check the URLs in the Job Signals API credential and that the service is reachable from n8n.',
	});
}
