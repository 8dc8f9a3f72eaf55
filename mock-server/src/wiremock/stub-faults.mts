/**
 * WireMock's response faults, as the mock can make them. In-process (msw) the only broken
 * answers are a network error and a body that fails while it is read; the standalone server
 * writes each fault to the socket itself (writeStubFault), closer to WireMock's own:
 *
 * | fault | standalone (node:http socket) | in-process (fetch under msw) |
 * |---|---|---|
 * | CONNECTION_RESET_BY_PEER | TCP reset, nothing sent | the fetch rejects (network error) |
 * | EMPTY_RESPONSE | the connection closed, nothing sent | the fetch rejects |
 * | MALFORMED_RESPONSE_CHUNK | a 200 head, `Transfer-Encoding: chunked`, then a chunk that is not one, and close | a 200 whose body fails after its first bytes |
 * | RANDOM_DATA_THEN_CLOSE | bytes that are no HTTP answer, then close | the fetch rejects |
 */
import type { Socket } from 'node:net';
import { HttpResponse } from 'msw';

export const STUB_FAULTS = ['CONNECTION_RESET_BY_PEER', 'EMPTY_RESPONSE', 'MALFORMED_RESPONSE_CHUNK', 'RANDOM_DATA_THEN_CLOSE'] as const;
export type StubFault = (typeof STUB_FAULTS)[number];

/** The first bytes a malformed chunked body sends before it breaks. */
const MALFORMED_START = '{"partial":';
/** Not a chunk size: the client's parser fails on it. */
const MALFORMED_CHUNK = 'lskdu018973t09sylgasjkfg1][]\'./.sdlv';
const MALFORMED_HEAD = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${MALFORMED_START.length.toString(16)}\r\n${MALFORMED_START}\r\n${MALFORMED_CHUNK}`;
/** Fixed, so a test sees the same bytes each time; no HTTP parser reads them as a status line. */
const RANDOM_DATA = '\u0000\u00ff\u00fe garbage-not-http \u0007\u0008\r\n\r\n';

/** Which fault a response stands for (only the standalone server asks, for the answer it is about to write). */
const faultOf = new WeakMap<Response, StubFault>();

/** The in-process answer that stands for a fault. */
export function faultResponse(fault: StubFault): Response {
	const response = fault === 'MALFORMED_RESPONSE_CHUNK' ? malformedBody() : HttpResponse.error();
	faultOf.set(response, fault);
	return response;
}

function malformedBody(): Response {
	let pulls = 0;
	// The first bytes on the first read; the failure on the next, a turn later, once msw has sent the head and those bytes.
	const body = new ReadableStream<Uint8Array>({
		async pull(controller) {
			if (pulls++ === 0) return controller.enqueue(new TextEncoder().encode(MALFORMED_START));
			await new Promise((resolve) => setImmediate(resolve));
			controller.error(new TypeError('Malformed response chunk (WireMock stub fault MALFORMED_RESPONSE_CHUNK)'));
		},
	});
	// A length the body never reaches: the client cannot take the close for the body's end.
	return new HttpResponse(body, { status: 200, headers: { 'Content-Type': 'application/json', 'Content-Length': String(MALFORMED_START.length + MALFORMED_CHUNK.length) } });
}

/** Writes a stub's fault to the socket and closes it; false when the response is no fault (the server answers as usual). */
export function writeStubFault(socket: Socket, response: Response): boolean {
	const fault = faultOf.get(response);
	if (fault === undefined) return false;
	switch (fault) {
		case 'CONNECTION_RESET_BY_PEER':
			socket.resetAndDestroy();
			break;
		case 'EMPTY_RESPONSE':
			socket.destroy();
			break;
		case 'MALFORMED_RESPONSE_CHUNK':
			socket.end(MALFORMED_HEAD);
			break;
		case 'RANDOM_DATA_THEN_CLOSE':
			socket.end(Buffer.from(RANDOM_DATA, 'latin1'));
			break;
	}
	return true;
}
