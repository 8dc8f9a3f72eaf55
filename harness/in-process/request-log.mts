/**
 * Wraps a list of msw handlers in one handler that logs every request the
 * mock answers and the status it answered with, then returns that answer.
 * Works the same under setupServer (in-process) and behind the standalone
 * server (the benchmark), so requests and 429s are counted by the mock.
 */
import { getResponse, http, type HttpHandler } from 'msw';

export interface LoggedRequest {
	/** A clone taken before the mock read it, so its body can still be read. */
	request: Request;
	/** The mock's status; 0 for a dropped connection (an injected network error). */
	status: number;
	/** When the mock got the request and when its answer was ready (performance.now()): which calls overlapped. */
	receivedAt: number;
	answeredAt?: number;
}

export function logRequests(handlers: readonly HttpHandler[]) {
	const log: LoggedRequest[] = [];
	const handler = http.all('*', async ({ request }) => {
		const entry: LoggedRequest = { request: request.clone(), status: 0, receivedAt: performance.now() };
		log.push(entry);
		const response = await getResponse([...handlers], request);
		entry.answeredAt = performance.now();
		if (response) entry.status = response.type === 'error' ? 0 : response.status;
		return response;
	});
	return {
		handler,
		log,
		clear: () => void log.splice(0, log.length),
	};
}
