/**
 * The answer to a request node's HTTP parser refused (a 'clientError'), in the
 * mock's JSON error shape: the same body every other refusal has, where node
 * would send a bare "400 Bad Request" with no body.
 */
import { STATUS_CODES } from 'node:http';

/** Parser error codes with their own status; any other parse error is 400. */
const STATUS_BY_CODE: Record<string, number> = {
	HPE_HEADER_OVERFLOW: 431,
	ERR_HTTP_REQUEST_TIMEOUT: 408,
	HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
};

/** The raw HTTP answer to write before closing, or undefined when the client is gone (nothing to answer). */
export function clientErrorAnswer(error: NodeJS.ErrnoException): string | undefined {
	if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return undefined;
	const status = STATUS_BY_CODE[error.code ?? ''] ?? 400;
	const reason = STATUS_CODES[status] ?? 'Error';
	const body = JSON.stringify({ status, error: reason, message: `node's HTTP parser refused the request (${error.code ?? 'parse error'}): ${describe(error)}` });
	return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** The parser's reason without the raw bytes it quotes (they may hold a token). */
function describe(error: NodeJS.ErrnoException): string {
	return (error as { reason?: string }).reason ?? error.message.split('\n')[0];
}
