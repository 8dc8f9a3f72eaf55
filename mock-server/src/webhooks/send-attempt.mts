/**
 * One delivery attempt: POST the envelope, wait for the status and the body,
 * give up at the timeout. Success is HTTP 200 exactly (spec: "The receiver
 * must answer HTTP 200"); redirects are not followed, so a 3xx fails too.
 */
export interface AttemptResult {
	status: number | null;
	error: string | null;
	durationMs: number;
}

export async function sendAttempt(
	url: string,
	body: string,
	timeoutMs: number,
	cancel: AbortSignal,
): Promise<AttemptResult> {
	const started = performance.now();
	const timeout = AbortSignal.timeout(Math.max(1, Math.round(timeoutMs)));
	const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
	try {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'user-agent': 'job-signals-mock-webhooks' },
			body,
			redirect: 'manual',
			signal: AbortSignal.any([timeout, cancel]),
		});
		// The answer counts once it is complete: a receiver that sends its status
		// fast but its body slowly is still slow.
		await response.arrayBuffer();
		return {
			status: response.status,
			error: response.status === 200 ? null : `status ${response.status}`,
			durationMs: elapsed(),
		};
	} catch (error) {
		const message = timeout.aborted
			? `timeout after ${Math.round(timeoutMs)} ms`
			: error instanceof Error
				? describeFetchError(error)
				: String(error);
		return { status: null, error: message, durationMs: elapsed() };
	}
}

/** undici hides the useful reason (ECONNREFUSED, socket hang up) in `cause`. */
function describeFetchError(error: Error): string {
	const cause = (error as { cause?: unknown }).cause;
	return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}
