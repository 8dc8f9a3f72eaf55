/**
 * WireMock's GET /__admin/health and GET /__admin/version, which Docker health checks and container
 * wait strategies call: the same fields as WireMock's, with the mock's own version (its package's), the
 * seconds since the mock started (a monotonic count: the mock's clock may be frozen or moved) and the
 * wall clock's time (the process's, as WireMock's; not the mock's clock, which dates what it hands out).
 */
import { z } from 'zod/v4';
import { mockVersion } from '../package-version.mts';

export const healthAnswerSchema = z
	.object({
		status: z.literal('healthy').describe('The mock answers: it is healthy (it has no other state to report)'),
		message: z.string(),
		version: z.string().describe("The mock's version (job-signals-mock-server's), not WireMock's"),
		uptimeInSeconds: z.number().int().min(0).describe('Whole seconds since the mock started'),
		timestamp: z.iso.datetime().describe('The wall clock when answered (not the mock\'s clock)'),
	})
	.strict();

export const versionAnswerSchema = z.object({ version: z.string().describe("The mock's version (job-signals-mock-server's)") }).strict();

/** What the answers read of the running process: milliseconds since the mock started (monotonic), and the wall clock. */
export interface Running {
	uptimeMs(): number;
	wallClockMs(): number;
}

/** From now on, by performance.now() and Date.now(). */
export function runningSince(): Running {
	const started = performance.now();
	return { uptimeMs: () => performance.now() - started, wallClockMs: () => Date.now() };
}

export const HEALTHY_MESSAGE = 'job-signals-mock-server is ok';

export function healthAnswer(running: Running): z.infer<typeof healthAnswerSchema> {
	return {
		status: 'healthy',
		message: HEALTHY_MESSAGE,
		version: mockVersion(),
		uptimeInSeconds: Math.max(0, Math.floor(running.uptimeMs() / 1000)),
		timestamp: new Date(running.wallClockMs()).toISOString(),
	};
}

export const versionAnswer = (): z.infer<typeof versionAnswerSchema> => ({ version: mockVersion() });
