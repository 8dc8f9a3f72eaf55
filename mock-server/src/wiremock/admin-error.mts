/**
 * The one error answer of the /__admin routes, in WireMock's shape, which its clients read:
 * `{"errors": [{"code", "source"?: {"pointer"}, "title", "detail"}]}`. A 400 has WireMock's code for
 * invalid input (10); any other status its own number as the code (WireMock answers those without a
 * code of its own). `detail` is the mock's whole message, naming what is wrong; `title` is WireMock's
 * "Error parsing JSON" for a body or mapping it cannot read, else the status's reason phrase. What the
 * server refuses before any admin route runs (CORS, Host, a method it routes to no handler, 413, 414) keeps the mock's own error body.
 */
import { HttpResponse } from 'msw';
import { STATUS_CODES } from 'node:http';
import { z } from 'zod/v4';

/** WireMock's code for input it cannot read (its JsonException and validation errors). */
const INVALID_INPUT = 10;
/** WireMock's title for a body or a mapping it cannot read. */
export const JSON_ERROR_TITLE = 'Error parsing JSON';

export const adminErrorSchema = z
	.object({
		errors: z
			.array(
				z
					.object({
						code: z.number().int().describe('10: input the mock cannot read (a 400, as WireMock); else the HTTP status'),
						source: z.object({ pointer: z.string().describe('Where in the body, as a JSON pointer (/request/cookies)') }).strict().optional(),
						title: z.string().describe('"Error parsing JSON" for a body or mapping the mock cannot read; else the reason phrase'),
						detail: z.string().describe('What is wrong, naming the field'),
					})
					.strict(),
			)
			.length(1),
	})
	.strict();
export type AdminErrorBody = z.infer<typeof adminErrorSchema>;

/** `pointer`: where in the body the problem is (a JSON pointer, e.g. /request/cookies). */
export function adminError(status: number, detail: string, { title, pointer, headers }: { title?: string; pointer?: string; headers?: Record<string, string> } = {}): Response {
	const body: AdminErrorBody = {
		errors: [{ code: status === 400 ? INVALID_INPUT : status, ...(pointer !== undefined && { source: { pointer } }), title: title ?? STATUS_CODES[status] ?? 'Error', detail }],
	};
	return HttpResponse.json(body, { status, headers });
}

/**
 * A field path as the mapping readers name it (`request.headers.x-a.matches`, `request.bodyPatterns[0]`; the root is
 * `mapping` or `request pattern`) as a JSON pointer (`/request/headers/x-a/matches`). A name with a dot in it reads as two.
 */
export function pointerOf(field: string): string {
	const parts = field.replace(/\[(\d+)\]/g, '.$1').split('.');
	const [root, ...rest] = parts;
	const path = root === 'mapping' || root === 'request pattern' ? rest : parts;
	return path.map((part) => `/${part.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
