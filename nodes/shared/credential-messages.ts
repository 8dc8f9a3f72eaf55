/**
 * What the credential test says (n8n shows it under "More details" of "Couldn't connect with these settings"): in
 * words a user can act on, not status codes. Three failures a user can tell apart and fix:
 * - the token is refused: copy it again;
 * - nothing answers at the API Base URL (with the URL and what happened);
 * - something answers there, but not the service (a web site, a proxy's page, a path without /v2).
 */
import { describeBody } from './transport/body-text';
import { serviceMessage, type RawAnswer } from './transport/errors';

export const INVALID_TOKEN = 'Invalid API token — copy it again from the service\'s web application (Settings → API)';

export function noAnswer(url: string, what: string): string {
	return `The API Base URL does not answer: ${url} (${what}). Check the address, and that n8n can reach it.`;
}

/** The message for an answer to GET {base_url}/collections; undefined when it is the service's good answer. */
export function answerMessage(url: string, answer: RawAnswer): string | undefined {
	const said = serviceMessage(answer);
	const json = parseJson(answer.text);
	// The service's own error body (contract: status, error, message) names a refused token; 401 and 403 are refusals too.
	if ((answer.status === 400 && /token/i.test(said ?? '')) || answer.status === 401 || answer.status === 403) return INVALID_TOKEN;
	if (answer.status >= 200 && answer.status < 300) {
		if (isObject(json) && Array.isArray(json.data)) return undefined;
		return notTheService(url, `${answer.status} with ${describeBody(answer.text, answer.status, answer.statusText)}`);
	}
	// GET /collections exists for every account: a 404 means the URL is not the API root (its /v2 missing, another host).
	if (answer.status === 404) return notTheService(url, `404 with ${describeBody(answer.text, answer.status, answer.statusText)}`);
	if (answer.status === 429) return 'The service is rate limiting this token right now (429): try again in a minute.';
	// Only a JSON error with a message is the service speaking; an HTML page or other text is something else at that address.
	if (isObject(json) && typeof json.message === 'string') return `The service answered ${answer.status}: ${said}`;
	return notTheService(url, `${answer.status} with ${describeBody(answer.text, answer.status, answer.statusText)}`);
}

function notTheService(url: string, what: string): string {
	return `The API Base URL answers, but not as the service: ${url} answered ${what}. Use the API root including its version, e.g. https://api.example.com/v2.`;
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
