/** The standalone mock over real HTTP, with every request it answers logged (to count calls and 429s) and timed. */
import { PerformanceObserver } from 'node:perf_hooks';
import { getResponse, http } from 'msw';
import { startMockServer, type StartOptions } from 'job-signals-mock-server';
import { logRequests } from '../../harness/in-process/request-log.mts';
import { isMajorGc } from './gc.mts';

/** One GC pause of the mock's process: when it began (ms since the epoch), how long, and whether it was a major (mark-compact) one. */
export interface MockPause {
	at: number;
	ms: number;
	major: boolean;
}

export async function startLoggedMock(options: StartOptions) {
	const server = await startMockServer({ ...options, port: 0 });
	const { handlers } = server.service;
	const logged = logRequests([...handlers]);
	let mockMs = 0;
	// How long the mock took to produce its answers (building a page it has not cached is most of it): the part of a run's wall time the workflow does not spend.
	const timed = http.all('*', async ({ request }) => {
		const started = performance.now();
		const answer = await getResponse([logged.handler], request);
		mockMs += performance.now() - started;
		return answer;
	});
	// The server reads service.handlers on each request, so from now on the logging handler answers them all.
	handlers.splice(0, handlers.length, timed);
	// The collector's pauses in the mock's process (a long one holds every page a pipelined walk waits for),
	// with their clock time, so that a run can count those that fell inside it.
	let pauses: MockPause[] = [];
	new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) pauses.push({ at: performance.timeOrigin + entry.startTime, ms: entry.duration, major: isMajorGc(entry) });
	}).observe({ entryTypes: ['gc'] });
	return {
		...server,
		/** The log since the last call, then cleared: calls made, 429s received, other failures. */
		takeCalls() {
			const statuses = logged.log.map((entry) => entry.status);
			logged.clear();
			const spent = mockMs;
			const gc = pauses;
			mockMs = 0;
			pauses = [];
			return {
				mockMs: spent,
				gc,
				calls: statuses.length,
				tooMany: statuses.filter((s) => s === 429).length,
				otherFailures: statuses.filter((s) => s !== 429 && (s < 200 || s >= 300)).length,
			};
		},
	};
}

export type LoggedMock = Awaited<ReturnType<typeof startLoggedMock>>;
