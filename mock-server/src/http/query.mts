/**
 * Query parsing with the contract's schemas: the first problem (a repeated single-valued parameter included)
 * becomes a 400 naming the parameter. And what a tester is warned of (http/route.mts): a parameter the
 * endpoint does not take (a typo such as `serach`), a `+` in `search` that arrived as a space.
 */
import { z } from 'zod/v4';
import { type Endpoint, type EndpointName, ENDPOINTS, QUERY_SCHEMAS } from '../base/contract.mts';
import { apiError } from './respond.mts';

/** `refuse`: the 400 for a message (the service's error body unless the route has its own, as WireMock's admin API). */
export function parseQuery<S extends z.ZodType>(
	schema: S,
	url: URL,
	repeated: readonly string[] = [],
	refuse: (message: string) => Response = (message) => apiError(400, message),
): z.infer<S> | Response {
	const raw: Record<string, string | string[]> = {};
	const seen = new Set<string>();
	// A parameter the schema does not take is the route's to warn of (http/route.mts), once or repeated.
	const takes = schema instanceof z.ZodObject ? (schema.shape as Record<string, unknown>) : undefined;
	for (const [name, value] of url.searchParams) {
		if (repeated.includes(name) || (takes !== undefined && !Object.hasOwn(takes, name))) continue;
		// Which of two values a client meant is a guess; the last one silently winning hid client bugs.
		if (seen.has(name)) return refuse(`Invalid query parameter "${name}": given more than once, takes one value`);
		seen.add(name);
		raw[name] = value;
	}
	for (const name of repeated) raw[name] = url.searchParams.getAll(name);
	const parsed = schema.safeParse(raw);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	const name = String(issue.path[0] ?? 'query');
	return refuse(`Invalid query parameter "${name}": ${issue.message}`);
}

/** The parameters an endpoint takes: its query schema's (contract/schemas.ts), in the schema's order; none without one. */
export function knownQueryParameters(endpoint: EndpointName): readonly string[] {
	const query = (ENDPOINTS[endpoint] as Endpoint).doc.query;
	return query === undefined ? [] : Object.keys(QUERY_SCHEMAS[query].shape);
}

/** The parameters sent that the endpoint does not take, each once, in the order sent. */
export function unknownQueryParameters(url: URL, known: readonly string[]): string[] {
	const unknown = new Set<string>();
	for (const name of url.searchParams.keys()) if (!known.includes(name)) unknown.add(name);
	return [...unknown];
}

/** A warning names at most this many parameters, each cut to MAX_NAME_LENGTH characters: a header and a journal entry stay small. */
const MAX_NAMES = 10;
const MAX_NAME_LENGTH = 64;

/** A parameter name as a header can carry it: printable ASCII, the rest (and `"`, `\`, `%`) percent-encoded as UTF-8. */
function printable(name: string): string {
	const cut = name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}…` : name;
	return cut.replace(/[^\x21-\x7e]|["\\%]/gu, (char) => [...new TextEncoder().encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}

/** `unknown query parameter "serach"; known: search, locations, …` (the warning, and the strict mode's 400). */
export function unknownQueryMessage(unknown: readonly string[], known: readonly string[]): string {
	const names = unknown.slice(0, MAX_NAMES).map((name) => `"${printable(name)}"`).join(', ');
	const more = unknown.length > MAX_NAMES ? ` and ${unknown.length - MAX_NAMES} more` : '';
	const takes = known.length === 0 ? 'this endpoint takes none' : `known: ${known.join(', ')}`;
	return `unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}${more}; ${takes}`;
}

/** Whether the raw query gives `name` a value with a literal `+`, which form decoding turned into a space. */
export function sentWithPlus(url: URL, name: string): boolean {
	return url.search.slice(1).split('&').some((pair) => {
		const at = pair.indexOf('=');
		if (at < 0 || !pair.slice(at + 1).includes('+')) return false;
		return new URLSearchParams(`${pair.slice(0, at)}=`).keys().next().value === name;
	});
}

export const PLUS_IN_SEARCH_WARNING = 'search was sent with a literal "+", which arrives as a space, and matched no job: send "+" as %2B';
