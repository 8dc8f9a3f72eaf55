/**
 * What happened to a request that got no answer, from the error code n8n's
 * request helper keeps on the error it throws (its `cause` is the HTTP
 * client's error, whose `code` is Node's: ECONNREFUSED, ECONNRESET, ENOTFOUND, …).
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
	if (/hang up/i.test(message)) return 'connection reset before an answer came';
	if (code?.includes('CERT') || code?.startsWith('ERR_TLS')) return `TLS certificate problem (${code})`;
	return code ? `network error ${code}` : 'no answer';
}

function networkCause(error: unknown): { code?: string; message: string } {
	for (let candidate = error, depth = 0; candidate && depth < 4; depth++) {
		const { code, message, cause } = candidate as { code?: unknown; message?: unknown; cause?: unknown };
		if (typeof code === 'string' && /^E[A-Z_]+$|^ERR_/.test(code)) return { code, message: typeof message === 'string' ? message : '' };
		candidate = cause;
	}
	return { message: (error as { cause?: { message?: unknown } })?.cause?.message?.toString() ?? '' };
}
