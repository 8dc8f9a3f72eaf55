/**
 * What stubs cost the requests they do not answer (`bench:mock-prism`'s first part): the 100 stubs it loads, and
 * the measurement in one process without HTTP. There three mocks (default data, rate limit off), one with the stubs
 * and one the control (two alike mocks differ by this much), are asked the same requests in turn, request by request,
 * each timed from `new Request` to its whole body read.
 * The medians of those times hold still when the machine does other work (a request the scheduler interrupts is an
 * outlier on either side), and since HTTP adds the same socket and parsing work to both, their ratio bounds what
 * the stubs cost a request over HTTP from above.
 */
import { getResponse } from 'msw';
import type { Endpoint } from './answer-checks.mts';
import { median } from './prism-report.mts';
import type * as MockPackage from '../src/index.mts';

/**
 * 100 stubs on the loaded endpoints' own paths and methods, each narrowed so it never matches the load: exact URLs
 * beside them, path patterns that share their start, and query and header conditions on the very paths loaded.
 */
export function unmatchedStubs(prefix: string, endpoints: readonly Endpoint[]): Record<string, unknown>[] {
	const response = { status: 418, jsonBody: { stubbed: true } };
	return Array.from({ length: 100 }, (_, i) => {
		const path = endpoints[i % endpoints.length].path.split('?')[0];
		switch (i % 4) {
			case 0:
				return { request: { method: 'GET', url: `${prefix}/jobs/stub-${i}` }, response };
			case 1:
				return { request: { method: 'GET', urlPathPattern: `${prefix}${path}/stub-${i}/.*` }, response };
			case 2:
				return { request: { method: 'GET', urlPath: `${prefix}${path}`, queryParameters: { stub: { equalTo: String(i) } } }, response };
			default:
				return { request: { method: 'GET', urlPath: `${prefix}${path}`, headers: { 'x-stub': { equalTo: String(i) } } }, response };
		}
	});
}

export interface InProcessCost {
	endpoint: string;
	requests: number;
	/** Median time of one request, ms: the mock, the same mock again (the control), the mock with the stubs. */
	mockMs: number;
	againMs: number;
	stubbedMs: number;
}

const KINDS = ['mock', 'again', 'stubbed'] as const;

/** `requests` requests per mock and endpoint, the three taking turns; every answer must be a 200 of the given length. */
export async function inProcessCost(mockPackage: typeof MockPackage, endpoints: readonly Endpoint[], bytes: (endpoint: Endpoint) => number, requests: number): Promise<InProcessCost[]> {
	const options = { ...mockPackage.DEFAULT_OPTIONS, rateLimit: 0, stateDir: null };
	const services = { mock: await mockPackage.createMockService(options), again: await mockPackage.createMockService(options), stubbed: await mockPackage.createMockService(options) };
	try {
		for (const mapping of unmatchedStubs(mockPackage.API_VERSION_SEGMENT, endpoints)) services.stubbed.stubs.add(mapping);
		const headers = { authorization: `Bearer ${options.token}` };
		const ask = async (service: MockPackage.MockService, url: string, expected: number): Promise<number> => {
			const started = performance.now();
			const response = await getResponse(service.handlers, new Request(url, { headers }));
			const length = response === undefined ? -1 : (await response.arrayBuffer()).byteLength;
			const took = performance.now() - started;
			if (response?.status !== 200 || length !== expected) throw new Error(`${url}: ${response?.status ?? 'no answer'}, ${length} bytes (expected 200, ${expected})`);
			return took;
		};
		const results: InProcessCost[] = [];
		for (const endpoint of endpoints) {
			const url = `http://127.0.0.1${mockPackage.API_VERSION_SEGMENT}${endpoint.path}`;
			const times = { mock: [] as number[], again: [] as number[], stubbed: [] as number[] };
			// The first tenth warms them up and is not counted.
			const warmup = Math.ceil(requests / 10);
			for (let i = 0; i < warmup + requests; i++) {
				// Each turn another one first.
				for (let k = 0; k < KINDS.length; k++) {
					const kind = KINDS[(i + k) % KINDS.length];
					const took = await ask(services[kind], url, bytes(endpoint));
					if (i >= warmup) times[kind].push(took);
				}
			}
			results.push({ endpoint: endpoint.name, requests, mockMs: median(times.mock), againMs: median(times.again), stubbedMs: median(times.stubbed) });
		}
		return results;
	} finally {
		for (const service of Object.values(services)) service.close();
	}
}
