/** Response helpers: the API's JSON error body (apiErrorSchema) and the upload's responseText error. */
import { HttpResponse } from 'msw';
import { STATUS_CODES } from 'node:http';

export function apiError(status: number, message: string, headers?: Record<string, string>): Response {
	return HttpResponse.json({ status, error: STATUS_CODES[status] ?? 'Error', message }, { status, headers });
}

export function uploadError(reason: string): Response {
	return HttpResponse.json({ responseText: `Error '${reason}'` }, { status: 400 });
}

/** A JSON response from an already-serialized body (the hot paths build their bytes themselves). */
export function rawJson(body: string | Uint8Array<ArrayBuffer>, status = 200): Response {
	return new HttpResponse(body, { status, headers: { 'Content-Type': 'application/json' } });
}
