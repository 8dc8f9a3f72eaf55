import { shownValue } from '../record-parts';

/**
 * What happened to a request that got no answer, from the error code n8n's
 * request helper keeps on the error it throws (its `cause` is the HTTP
 * client's error, whose `code` is Node's: ECONNREFUSED, ECONNRESET, ENOTFOUND, …, or its HTTP parser's: HPE_…).
 */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
	const { code, message } = networkCause(error);
	switch (code) {
		case 'ECONNREFUSED':
			return 'connection refused';
		case 'ECONNRESET':
		case 'EPIPE':
			return 'connection reset before an answer came';
		case 'ETIMEDOUT':
		case 'ESOCKETTIMEDOUT':
			return `timed out after ${timeoutMs / 1000} s`;
		case 'ECONNABORTED':
			// The HTTP client's code for its own timeout (message "timeout of … exceeded").
			return /timeout/i.test(message) ? `timed out after ${timeoutMs / 1000} s` : 'connection aborted';
		case 'ENOTFOUND':
			return 'DNS failure: the host name was not found';
		case 'EAI_AGAIN':
			return 'DNS failure: the name server did not answer';
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
			return 'host unreachable';
	}
	// llhttp's codes: bytes came back, but not an HTTP answer.
	if (code?.startsWith('HPE_')) return `an answer that is not HTTP (${code})`;
	if (/hang up/i.test(message)) return 'connection reset before an answer came';
	if (code?.includes('CERT') || code?.startsWith('ERR_TLS')) return `TLS certificate problem (${code})`;
	if (code) return `network error ${code}`;
	// No code: the error's own words, so that a cause this list does not know is still named.
	return message ? `no answer (${shownValue(message, MESSAGE_MAX)})` : 'no answer';
}

/** How much of an unknown error's message the description keeps (a message can hold a whole body). */
const MESSAGE_MAX = 200;

/** The first Node error code down the `cause` chain, with its message; without one, the innermost message. */
function networkCause(error: unknown): { code?: string; message: string } {
	let innermost = '';
	for (let candidate = error, depth = 0; candidate && depth < 4; depth++) {
		const { code, message, cause } = candidate as { code?: unknown; message?: unknown; cause?: unknown };
		if (typeof code === 'string' && /^E[A-Z_]+$|^ERR_|^HPE_/.test(code)) return { code, message: typeof message === 'string' ? message : '' };
		if (typeof message === 'string' && message !== '') innermost = message;
		candidate = cause;
	}
	return { message: innermost };
}
