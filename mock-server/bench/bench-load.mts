/**
 * The benchmark's load generator: `concurrency` keep-alive clients send GETs
 * back to back for `durationMs`, each reading the whole body and checking it
 * (its length, or a check of its content when every request asks something
 * else): a fast wrong answer must not count. The result is requests per
 * second and latency percentiles.
 */
import { Agent, request } from 'node:http';

export interface LoadResult {
	requests: number;
	rps: number;
	p50: number;
	p99: number;
}

/** The body's exact length in bytes, or a check of its text that returns what is wrong (undefined if nothing). */
export type Expected = number | ((body: string) => string | undefined);

function get(agent: Agent, url: URL, headers: Record<string, string>, expected: Expected): Promise<void> {
	return new Promise((resolve, reject) => {
		const req = request(url, { agent, headers }, (res) => {
			let bytes = 0;
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => {
				bytes += chunk.length;
				if (typeof expected === 'function') chunks.push(chunk);
			});
			res.on('end', () => {
				const where = `${url.pathname}${url.search}`;
				if (res.statusCode !== 200) return reject(new Error(`${where}: HTTP ${res.statusCode}`));
				if (typeof expected === 'number') {
					return bytes === expected ? resolve() : reject(new Error(`${where}: ${bytes} bytes, expected ${expected}`));
				}
				const wrong = expected(Buffer.concat(chunks).toString('utf8'));
				return wrong === undefined ? resolve() : reject(new Error(`${where}: ${wrong}`));
			});
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end();
	});
}

function percentile(sorted: readonly number[], p: number): number {
	return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** `url` is one URL for every request, or a function giving each request its own. */
export async function load(
	url: string | (() => string),
	headers: Record<string, string>,
	expected: Expected,
	concurrency: number,
	durationMs: number,
): Promise<LoadResult> {
	const next = typeof url === 'string' ? () => url : url;
	const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
	const latencies: number[] = [];
	const started = performance.now();
	const deadline = started + durationMs;
	const client = async () => {
		while (performance.now() < deadline) {
			const t = performance.now();
			await get(agent, new URL(next()), headers, expected);
			latencies.push(performance.now() - t);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, client));
	const elapsed = performance.now() - started;
	agent.destroy();
	latencies.sort((a, b) => a - b);
	return { requests: latencies.length, rps: (latencies.length * 1000) / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
