/** The service's options: the same names as the CLI flags, with their defaults. */
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
}

export const DEFAULT_OPTIONS: Required<MockServiceOptions> = {
	seed: 42,
	sources: 2000,
	jobs: 100_000,
	signals: 100_000,
	token: 'demo-token-job-signals',
	rateLimit: 60,
	timeScale: 1,
};

export function resolveOptions(options: MockServiceOptions): Required<MockServiceOptions> {
	const resolved = { ...DEFAULT_OPTIONS };
	for (const [name, value] of Object.entries(options)) if (value !== undefined) Object.assign(resolved, { [name]: value });
	if (!(resolved.timeScale > 0)) throw new Error('timeScale must be greater than 0');
	for (const name of ['seed', 'sources', 'jobs', 'signals', 'rateLimit'] as const) {
		if (!Number.isInteger(resolved[name]) || resolved[name] < 0) throw new Error(`${name} must be a whole number ≥ 0`);
	}
	if (resolved.token.trim() === '' || /\s/.test(resolved.token)) throw new Error('token must be non-empty, without spaces');
	return resolved;
}
