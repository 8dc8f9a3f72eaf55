/** Writes a fetch Response to a node:http response. */
import type { ServerResponse } from 'node:http';

export async function writeResponse(res: ServerResponse, response: Response, extraHeaders: Record<string, string> = {}): Promise<void> {
	// Reading the body's chunks (a page's are its records' cached bytes) skips the copy arrayBuffer() makes:
	// on a 1000-signal page that copy was a third of the request's time and of its garbage.
	const parts: Uint8Array[] = [];
	let length = 0;
	const reader = response.body?.getReader();
	for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
		parts.push(read.value);
		length += read.value.byteLength;
	}
	const headers: Record<string, string> = {};
	response.headers.forEach((value, name) => (headers[name] = value));
	Object.assign(headers, extraHeaders);
	headers['content-length'] = String(length);
	res.writeHead(response.status, headers);
	// A page is one chunk per record: corked, they leave in one gathered write instead of a write each.
	res.cork();
	for (const part of parts) res.write(part);
	res.uncork();
	res.end();
}
