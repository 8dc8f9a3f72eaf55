/**
 * The bodies a broken proxy or server sends with a 2xx (or any) status, for
 * the `body` field of a fault rule. The answer keeps its status and headers;
 * only the body (and its length) changes, plus Content-Type for an HTML page.
 */
import { STATUS_CODES } from 'node:http';

export const BAD_BODIES = ['truncated-json', 'html', 'empty', 'wrong-shape', 'null-list', 'json-string'] as const;
export type BadBody = (typeof BAD_BODIES)[number];

export async function withBadBody(answer: Response, kind: BadBody): Promise<Response> {
	const headers = new Headers(answer.headers);
	headers.delete('content-length');
	const text = await answer.text();
	let body: string;
	switch (kind) {
		case 'truncated-json':
			// The first half of the real answer: what a connection cut mid-body leaves.
			body = text.slice(0, Math.floor(text.length / 2));
			break;
		case 'html': {
			const title = `${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trim();
			body = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1><hr><center>proxy</center></body></html>\n`;
			headers.set('content-type', 'text/html; charset=utf-8');
			break;
		}
		case 'empty':
			body = '';
			break;
		case 'wrong-shape':
			body = '{"unexpected":true}';
			break;
		case 'null-list':
			body = JSON.stringify(nullLists(text));
			break;
		case 'json-string':
			body = '"unexpected"';
			break;
	}
	return new Response(body, { status: answer.status, statusText: answer.statusText, headers });
}

/** The real answer with every top-level list (`data`, `signals`) set to null: the envelope is right, the list is not. */
function nullLists(text: string): unknown {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return null;
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
	return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, Array.isArray(field) ? null : field]));
}
