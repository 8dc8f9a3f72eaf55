/**
 * The benchmark's load generator: `concurrency` keep-alive clients send GETs
 * back to back for `durationMs`, each reading the whole body and checking its
 * length (a fast wrong answer must not count); the result is requests per
 * second and latency percentiles.
 */
import { Agent, request } from 'node:http';

export interface LoadResult {
	requests: number;
	rps: number;
	p50: number;
	p99: number;
}

function get(agent: Agent, url: URL, headers: Record<string, string>, expectedBytes: number): Promise<void> {
	return new Promise((resolve, reject) => {
		const req = request(url, { agent, headers }, (res) => {
			let bytes = 0;
			res.on('data', (chunk: Buffer) => (bytes += chunk.length));
			res.on('end', () => {
				if (res.statusCode !== 200) reject(new Error(`${url.pathname}: HTTP ${res.statusCode}`));
				else if (bytes !== expectedBytes) reject(new Error(`${url.pathname}: ${bytes} bytes, expected ${expectedBytes}`));
				else resolve();
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

export async function load(
	url: string,
	headers: Record<string, string>,
	expectedBytes: number,
	concurrency: number,
	durationMs: number,
): Promise<LoadResult> {
	const target = new URL(url);
	const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
	const latencies: number[] = [];
	const started = performance.now();
	const deadline = started + durationMs;
	const client = async () => {
		while (performance.now() < deadline) {
			const t = performance.now();
			await get(agent, target, headers, expectedBytes);
			latencies.push(performance.now() - t);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, client));
	const elapsed = performance.now() - started;
	agent.destroy();
	latencies.sort((a, b) => a - b);
	return { requests: latencies.length, rps: (latencies.length * 1000) / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
