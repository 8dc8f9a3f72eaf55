/** The service's options: the same names as the CLI flags, with their defaults. */
import type { DataInput } from './data/data-file.mts';
import { LOOPBACK } from './http/cors.mts';
import { DEFAULT_MAX_QUEUED, DEFAULT_MAX_QUEUED_PER_ACCOUNT } from './webhooks/delivery-engine.mts';

export interface MockServiceOptions {
	seed?: number;
	sources?: number;
	jobs?: number;
	signals?: number;
	/** The demo account's API token (and subscriber upload access key). */
	token?: string;
	/** Requests per minute per account; 0 turns the limit off. */
	rateLimit?: number;
	/** Multiplies every webhook delay and the rate-limit window. */
	timeScale?: number;
	/** A folder that keeps every change across restarts (see state/state-folder.mts); null keeps state in memory only. */
	stateDir?: string | null;
	/** Seconds between cycles run on a timer; 0 runs none (cycles only through POST /__mock/process). */
	cycleInterval?: number;
	/** Whether answers carry the X-RateLimit-* headers (the limit still holds, and a 429 still carries Retry-After). */
	rateLimitHeaders?: boolean;
	/** The pages browsers may call from: `loopback` (http(s)://localhost, 127.0.0.1, [::1], any port), `*` (any), or exact origins and `loopback` separated by commas (see http/cors.mts; a bad value throws there). */
	corsOrigin?: string;
	/** Your own sources, jobs, signals and collections added to the seed: a JSON file's path, or its contents (see data/data-file.mts). */
	data?: DataInput | null;
	/** The most webhook deliveries queued at once (waiting or between retries), all accounts together; more are logged `not_sent`. */
	maxQueuedDeliveries?: number;
	/** The most of one account's. */
	maxQueuedDeliveriesPerAccount?: number;
	/** Jobs, and signals, created by cycles and chosen events that are kept (each kind); past it each new one retires the oldest created one. */
	maxCreatedRecords?: number;
	/** A query parameter the endpoint does not take is answered 400; false (default): only warned of (X-Mock-Warning, the journal). */
	strictQuery?: boolean;
}

export const DEFAULT_OPTIONS: Required<MockServiceOptions> = {
	seed: 42,
	sources: 2000,
	jobs: 100_000,
	signals: 100_000,
	token: 'demo-token-job-signals',
	rateLimit: 60,
	timeScale: 1,
	stateDir: null,
	cycleInterval: 0,
	rateLimitHeaders: true,
	corsOrigin: LOOPBACK,
	data: null,
	maxQueuedDeliveries: DEFAULT_MAX_QUEUED,
	maxQueuedDeliveriesPerAccount: DEFAULT_MAX_QUEUED_PER_ACCOUNT,
	maxCreatedRecords: 100_000,
	strictQuery: false,
};

/**
 * A small seeded service for tests (the mock's own and other projects'): 40 sources,
 * 3,000 jobs and 3,000 signals, fast to build, with no rate limit to wait on.
 */
export const TEST_OPTIONS: MockServiceOptions = { seed: 7, sources: 40, jobs: 3000, signals: 3000, rateLimit: 0 };

export function resolveOptions(options: MockServiceOptions): Required<MockServiceOptions> {
	const resolved = { ...DEFAULT_OPTIONS };
	for (const [name, value] of Object.entries(options)) if (value !== undefined) Object.assign(resolved, { [name]: value });
	if (!(resolved.timeScale > 0)) throw new Error('timeScale must be greater than 0');
	if (!(Number.isFinite(resolved.cycleInterval) && resolved.cycleInterval >= 0)) throw new Error('cycleInterval must be a number ≥ 0');
	for (const name of ['seed', 'sources', 'jobs', 'signals', 'rateLimit', 'maxQueuedDeliveries', 'maxQueuedDeliveriesPerAccount'] as const) {
		if (!Number.isInteger(resolved[name]) || resolved[name] < 0) throw new Error(`${name} must be a whole number ≥ 0`);
	}
	if (!Number.isInteger(resolved.maxCreatedRecords) || resolved.maxCreatedRecords < 1) throw new Error('maxCreatedRecords must be a whole number ≥ 1');
	if (resolved.token.trim() === '' || /\s/.test(resolved.token)) throw new Error('token must be non-empty, without spaces');
	if (resolved.stateDir !== null && resolved.stateDir.trim() === '') throw new Error('stateDir must be a folder path');
	if (typeof resolved.rateLimitHeaders !== 'boolean') throw new Error('rateLimitHeaders must be true or false');
	if (typeof resolved.strictQuery !== 'boolean') throw new Error('strictQuery must be true or false');
	return resolved;
}
