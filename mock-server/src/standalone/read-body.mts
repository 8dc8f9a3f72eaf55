/**
 * Reads a request body up to a limit, checked while reading: a declared
 * Content-Length above it is refused before a byte is read, and a chunked body
 * that crosses it stops being kept (the rest is drained and dropped). Memory
 * per request is bounded by the limit; one 300 MB POST took the mock from
 * 111 MB to 2.3 GB when bodies were read whole.
 */
import type { IncomingMessage } from 'node:http';

/** `aborted`: the client closed the connection before the body ended (nothing to answer). */
export type BodyRead = { body: Buffer<ArrayBuffer> } | { tooLarge: true } | { aborted: true };

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
	const declared = Number(req.headers['content-length'] ?? 0);
	if (declared > maxBytes) return Promise.resolve({ tooLarge: true });
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let length = 0;
		const onData = (chunk: Buffer) => {
			length += chunk.length;
			if (length <= maxBytes) return void chunks.push(chunk);
			req.off('data', onData);
			req.off('end', onEnd);
			req.resume();
			resolve({ tooLarge: true });
		};
		const onEnd = () => resolve({ body: Buffer.concat(chunks, length) });
		req.on('data', onData);
		req.once('end', onEnd);
		// node reports a client gone mid-body as an 'aborted' error (ECONNRESET): a client's doing, not the mock's.
		req.once('error', () => resolve({ aborted: true }));
	});
}
