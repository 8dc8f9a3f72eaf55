// A Return All asks for the next two pages while the current one is read (nodes/shared/pages/collect.ts): three calls in
// flight, never more, and not one call more than the pages the service holds.
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { allSearched, NODE_TYPE, setFaults } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

const search = (parameters: Record<string, unknown>) =>
	runNode({ type: NODE_TYPE, parameters: { resource: 'job', operation: 'search', ...parameters }, credentials: { jobSignalsApi: mock.credentials } });

/** The most calls the mock had open at once. */
function mostInFlight(calls: readonly { receivedAt: number; answeredAt?: number }[]): number {
	const edges = calls.flatMap((call) => [
		{ at: call.receivedAt, change: 1 },
		{ at: call.answeredAt ?? Infinity, change: -1 },
	]);
	// At the same instant an answer leaves before the next call counts.
	edges.sort((a, b) => a.at - b.at || a.change - b.change);
	let open = 0;
	let most = 0;
	for (const edge of edges) most = Math.max(most, (open += edge.change));
	return most;
}

const jobCalls = () => mock.answers().filter((entry) => new URL(entry.request.url).pathname === '/v2/jobs');

describe('Return All asks two pages ahead', () => {
	it('overlaps three calls, never more, and makes exactly one call per page', async () => {
		const expected = await allSearched({});
		const pages = Math.ceil(expected.length / 100);
		expect(pages).toBeGreaterThan(3);
		// Each answer takes a while, so a walk that waited for each page before asking the next would never overlap calls.
		await setFaults([{ path: '/v2/jobs', latency_ms: 20 }]);
		const before = jobCalls().length;
		const run = await search({ returnAll: true });
		await setFaults([]);
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.job_id)).toEqual(expected.map((job) => job.job_id));
		const calls = jobCalls().slice(before);
		expect(calls).toHaveLength(pages);
		expect(new Set(calls.map((call) => call.request.url)).size).toBe(pages);
		expect(mostInFlight(calls)).toBe(3);
	});

	it('with a Limit, asks for no page beyond the ones it needs', async () => {
		const before = jobCalls().length;
		const run = await search({ returnAll: false, limit: 250 });
		expect(run.items).toHaveLength(250);
		expect(jobCalls().length - before).toBe(3);
	});
});
