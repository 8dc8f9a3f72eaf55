/** Response helpers: the API's JSON error body (apiErrorSchema), the upload's responseText error, and JSON bodies the hot paths build themselves. */
import { HttpResponse } from 'msw';
import { STATUS_CODES } from 'node:http';

export function apiError(status: number, message: string, headers?: Record<string, string>): Response {
	return HttpResponse.json({ status, error: STATUS_CODES[status] ?? 'Error', message }, { status, headers });
}

export function uploadError(reason: string): Response {
	return HttpResponse.json({ responseText: `Error '${reason}'` }, { status: 400 });
}

export const utf8 = new TextEncoder();

/**
 * A 200 JSON response over the given bytes, which may be kept and re-sent (a cached page).
 * A stream that hands out those same bytes avoids the copy `new Response(bytes)` makes: on a
 * 1000-signal page that copy is ~1 MB of garbage per request, and the major GCs it brings
 * are the latency tail. Readers must not transfer or detach the chunk (the standalone
 * adapter and msw's interceptors only read it).
 */
export function jsonBytes(bytes: Uint8Array<ArrayBuffer>): Response {
	return jsonChunks([bytes]);
}

/** The same over several chunks, in order (a body built a share per turn). */
export function jsonChunks(chunks: readonly Uint8Array<ArrayBuffer>[]): Response {
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			for (const chunk of chunks) controller.enqueue(chunk);
			controller.close();
		},
	});
	const length = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
	return new HttpResponse(body, {
		status: 200,
		headers: { 'Content-Type': 'application/json', 'Content-Length': String(length) },
	});
}

