/**
 * A mapping's `response` (WireMock's response definition): read from JSON, anything not
 * served refused with the field's name, and turned into a fresh Response per answer.
 *
 * Served: status (200–599, default 200), body, jsonBody, base64Body, headers (a value or a
 * list of values), fixedDelayMilliseconds (0–60,000) and fault (see stub-faults.mts; with a
 * fault only fixedDelayMilliseconds may be given). A jsonBody is sent with
 * `Content-Type: application/json` unless the headers name one (WireMock sends none).
 */
import { delay, HttpResponse } from 'msw';
import { fail, isPlainObject } from './content-patterns.mts';
import { faultResponse, STUB_FAULTS, type StubFault } from './stub-faults.mts';

export interface StubResponse {
	/** Waits the fixed delay, then answers (a new Response each time). */
	answer(): Promise<Response>;
}

/** The longest fixed delay (a request is held open that long), as a fault rule's latency_ms. */
const MAX_STUB_DELAY_MS = 60_000;
const SERVED_FIELDS = ['status', 'body', 'jsonBody', 'base64Body', 'headers', 'fixedDelayMilliseconds', 'fault'];
const NOT_SERVED_FIELDS: Record<string, string> = {
	statusMessage: 'a custom reason phrase is not served',
	bodyFileName: 'the mock has no files folder: give body, jsonBody or base64Body',
	delayDistribution: 'random delays are not served: use fixedDelayMilliseconds',
	chunkedDribbleDelay: 'dribbled bodies are not served: use fixedDelayMilliseconds',
	proxyBaseUrl: 'proxying is not served',
	additionalProxyRequestHeaders: 'proxying is not served',
	removeProxyRequestHeaders: 'proxying is not served',
	transformers: 'response templating and other transformers are not served',
	transformerParameters: 'response templating and other transformers are not served',
};
const BODY_FIELDS = ['body', 'jsonBody', 'base64Body'] as const;
/** Statuses whose answer has no body (fetch's Response refuses one). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

export function readStubResponse(input: unknown, path: string): StubResponse {
	if (input === undefined) input = {};
	if (!isPlainObject(input)) fail(path, 'must be an object such as {"status": 200, "jsonBody": {…}}');
	for (const key of Object.keys(input)) {
		if (SERVED_FIELDS.includes(key)) continue;
		const why = NOT_SERVED_FIELDS[key];
		fail(`${path}.${key}`, why === undefined ? `is no response field WireMock or this mock knows (served: ${SERVED_FIELDS.join(', ')})` : `WireMock's "${key}": ${why}`);
	}
	const delayMs = readDelay(input.fixedDelayMilliseconds, `${path}.fixedDelayMilliseconds`);
	const wait = () => (delayMs > 0 ? delay(delayMs) : Promise.resolve());
	if (input.fault !== undefined) {
		const fault = input.fault;
		if (typeof fault !== 'string' || !(STUB_FAULTS as readonly string[]).includes(fault)) fail(`${path}.fault`, `must be one of ${STUB_FAULTS.join(', ')}`);
		const extra = Object.keys(input).find((key) => key !== 'fault' && key !== 'fixedDelayMilliseconds');
		if (extra !== undefined) fail(`${path}.${extra}`, 'a fault sends no status, headers or body: give fault (and fixedDelayMilliseconds) alone');
		return { answer: () => wait().then(() => faultResponse(fault as StubFault)) };
	}
	const status = readStatus(input.status, `${path}.status`);
	const headers = readHeaders(input.headers, `${path}.headers`);
	const body = readBody(input, path);
	if (body !== null && NULL_BODY_STATUSES.has(status)) fail(`${path}.status`, `${status} answers have no body`);
	if (body?.json === true && !headers.has('content-type')) headers.set('content-type', 'application/json');
	return {
		answer: async () => {
			await wait();
			// Bytes, not a string: a string body would get fetch's own text/plain content type.
			return new HttpResponse(body && body.bytes.slice(), { status, headers: new Headers(headers) });
		},
	};
}

function readDelay(value: unknown, path: string): number {
	if (value === undefined) return 0;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_STUB_DELAY_MS) fail(path, `must be a whole number of milliseconds, 0 to ${MAX_STUB_DELAY_MS}`);
	return value;
}

function readStatus(value: unknown, path: string): number {
	if (value === undefined) return 200;
	// fetch's Response takes 200–599 only (1xx are the server's to send).
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 200 || value > 599) fail(path, 'must be a whole number from 200 to 599');
	return value;
}

function readHeaders(value: unknown, path: string): Headers {
	const headers = new Headers();
	if (value === undefined) return headers;
	if (!isPlainObject(value)) fail(path, 'must be an object of name → value (or list of values)');
	for (const [name, given] of Object.entries(value)) {
		const values = Array.isArray(given) ? given : [given];
		for (const each of values) {
			if (typeof each !== 'string' && typeof each !== 'number') fail(`${path}.${name}`, 'must be a string, or a list of strings');
			try {
				headers.append(name, String(each));
			} catch {
				fail(`${path}.${name}`, 'is not a valid HTTP header name and value');
			}
		}
	}
	return headers;
}

function readBody(input: Record<string, unknown>, path: string): { bytes: Uint8Array<ArrayBuffer>; json: boolean } | null {
	const given = BODY_FIELDS.filter((field) => input[field] !== undefined);
	if (given.length > 1) fail(path, `give one of ${BODY_FIELDS.join(', ')}, not ${given.join(' and ')}`);
	if (given.length === 0) return null;
	const field = given[0];
	const value = input[field];
	const at = `${path}.${field}`;
	if (field === 'jsonBody') return { bytes: utf8(JSON.stringify(value)), json: true };
	if (typeof value !== 'string') fail(at, field === 'body' ? 'must be a string (for JSON, use jsonBody)' : 'must be a base64 string');
	if (field === 'body') return { bytes: utf8(value), json: false };
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) fail(at, 'must be base64 (A–Z, a–z, 0–9, +, /, = padding)');
	return { bytes: new Uint8Array(Buffer.from(value, 'base64')), json: false };
}

const utf8 = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
