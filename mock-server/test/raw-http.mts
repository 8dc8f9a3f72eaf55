/**
 * HTTP/1.1 over a bare socket, for requests fetch will not send (TRACE, `*`
 * and absolute-URI targets, odd Host headers, lying Content-Length). Reads
 * until the server closes; a reset after the answer arrived (the server
 * closing on a body it refused) still yields that answer.
 */
import { connect } from 'node:net';

export interface RawAnswer {
	/** undefined when the connection ended with no status line. */
	status?: number;
	headers: Record<string, string>;
	body: string;
}

export function rawRequest(port: number, head: string, body: Buffer | string = '', timeoutMs = 20_000): Promise<RawAnswer> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1');
		const chunks: Buffer[] = [];
		const timer = setTimeout(() => {
			socket.destroy();
			reject(new Error(`no end of answer within ${timeoutMs} ms: ${JSON.stringify(head.slice(0, 200))}`));
		}, timeoutMs);
		const finish = () => {
			clearTimeout(timer);
			resolve(parse(Buffer.concat(chunks).toString('latin1')));
		};
		socket.on('data', (chunk: Buffer) => chunks.push(chunk));
		socket.on('close', finish);
		// EPIPE/ECONNRESET while still sending a body the server refused: 'close' follows.
		socket.on('error', () => undefined);
		socket.write(head);
		if (body.length > 0) socket.write(body);
	});
}

function parse(text: string): RawAnswer {
	const match = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/.exec(text);
	if (!match) return { headers: {}, body: text };
	const end = text.indexOf('\r\n\r\n');
	const headers: Record<string, string> = {};
	for (const line of text.slice(match[0].length, end).split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
	}
	return { status: Number(match[1]), headers, body: end === -1 ? '' : text.slice(end + 4) };
}
