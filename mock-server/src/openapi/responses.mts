/**
 * The answers every operation shares, for the OpenAPI document: the error
 * answers of the routing layer (http/route.mts, server.mts) and the rate-limit
 * headers (CHOICES.rateLimitHeaderNames, http/rate-limit.mts).
 */
import { CHOICES, LIMITS } from '../base/contract.mts';
import type { JsonSchema } from './json-schema.mts';

const HEADER_REF = '#/components/headers/';
const RESPONSE_REF = '#/components/responses/';
const wholeNumber = { type: 'integer', minimum: 0 };
const names = CHOICES.rateLimitHeaderNames;

export const HEADERS: Record<string, JsonSchema> = {
	[names.limit]: { description: "The account's requests per window (sent while the rate limit is on)", schema: wholeNumber },
	[names.remaining]: { description: 'Requests left in the current window (sent while the rate limit is on)', schema: wholeNumber },
	[names.reset]: { description: 'Seconds until the window resets (sent while the rate limit is on)', schema: wholeNumber },
	[names.retryAfter]: { description: 'Seconds to wait before retrying', required: true, schema: wholeNumber },
};

const header = (name: string) => ({ $ref: `${HEADER_REF}${name}` });

/** The headers a rate-limited answer carries. */
export const RATE_LIMIT_HEADERS = { [names.limit]: header(names.limit), [names.remaining]: header(names.remaining), [names.reset]: header(names.reset) };

/** Shared error answers by status; each operation refers to those that apply to it. */
export function sharedResponses(errorBody: JsonSchema): Record<string, JsonSchema> {
	const error = (description: string, headers?: Record<string, unknown>) => ({
		description,
		...(headers && { headers }),
		content: { 'application/json': { schema: errorBody } },
	});
	return {
		MethodNotAllowed: error('Another method than the documented ones on this path (standalone server); `Allow` lists those served', {
			Allow: { description: 'The methods this path serves', required: true, schema: { type: 'string' } },
		}),
		PayloadTooLarge: error(`The body is larger than the standalone server's limit (\`--max-body-bytes\`, default ${LIMITS.maxRequestBodyBytes} bytes); the message names the limit and that flag`),
		UriTooLong: error(`The path and query are longer than ${LIMITS.maxRequestTargetLength} characters (standalone server)`),
		TooManyRequests: error("Rate limit exceeded: the account's requests per window are used up; wait Retry-After seconds", {
			...RATE_LIMIT_HEADERS,
			[names.retryAfter]: header(names.retryAfter),
		}),
		ServerError: error('Server error (the spec lists it; the mock answers it only when a fault rule asks)'),
	};
}

export const responseRef = (name: string) => ({ $ref: `${RESPONSE_REF}${name}` });
