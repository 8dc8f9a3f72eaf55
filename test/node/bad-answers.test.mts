// A 2xx answer that is not what the contract promises fails the run, naming the operation, the page and what was wrong:
// the mock's bad-body faults on every list operation and single-object answer, and pages that fit the contract but lose data.
import { getResponse, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { MOCK_API_URL, SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { api, NODE_TYPE, setFaults } from './direct.mts';

// Enough data for a second page in every walk: > 1000 problems signals, a source with > 100 jobs, a collection with > 100 sources.
const mock = useMockService({ ...SMALL_MOCK, sources: 1500, jobs: 12_000, signals: 6000, rateLimit: 1_000_000 });

const runOperation = (resource: string, operation: string, parameters: Record<string, unknown> = {}, onError?: 'continueRegularOutput') =>
	runNode({
		type: NODE_TYPE,
		parameters: { resource, operation, ...parameters },
		credentials: { jobSignalsApi: mock.credentials },
		onError,
	});

const busiestSource = () => {
	const counts = new Map<string, number>();
	for (const { job } of mock.service.store.jobsOf(mock.service.accounts()[0].account_id)) counts.set(job.source_id, (counts.get(job.source_id) ?? 0) + 1);
	const [sourceId, count] = [...counts].sort((a, b) => b[1] - a[1])[0];
	expect(count).toBeGreaterThan(100);
	return sourceId;
};

const biggestCollection = async () => {
	const { data } = await api('/collections');
	const [collection] = (data as { collection_id: string; count_sources: number }[]).sort((a, b) => b.count_sources - a.count_sources);
	expect(collection.count_sources).toBeGreaterThan(100);
	return collection.collection_id;
};

/** The list operations, each with the path its pages come from and how its second page is named. */
const walks = async () => [
	{ label: 'Signal → Get Many', path: '/v2/signals/problems', secondPage: 'page 2', run: () => runOperation('signal', 'getAll', { group: 'problems', returnAll: true }) },
	{ label: 'Job → Search', path: '/v2/jobs', secondPage: 'offset 100', run: () => runOperation('job', 'search', { returnAll: true }) },
	{
		label: 'Job → Get Many for Source',
		path: '/v2/sources/id/',
		secondPage: 'cursor_job_id ',
		run: (() => {
			const id = busiestSource();
			return () => runOperation('job', 'getAllForSource', { source: { __rl: true, mode: 'id', value: id }, returnAll: true });
		})(),
	},
	{
		label: 'Source → Get Many in Collection',
		path: '/v2/collections/',
		secondPage: 'cursor_source_id ',
		run: await (async () => {
			const id = await biggestCollection();
			return () => runOperation('source', 'getAllInCollection', { collection: { __rl: true, mode: 'id', value: id }, returnAll: true });
		})(),
	},
];

const serviceUrls = () => mock.answers().map((a) => a.request.url).filter((url) => !new URL(url).pathname.startsWith('/__mock'));

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What each bad body makes the node say about a list page (`list`: the page's list field). */
const PROBLEMS: Array<[string, (list: string) => RegExp]> = [
	['truncated-json', () => /the body is not JSON: [\d,]+ characters of text starting "\{.*" \(.*JSON.*\)$/],
	['html', () => /the body is not JSON: an HTML page \("200 OK"\)$/],
	['empty', () => /the body is not JSON: an empty body$/],
	['wrong-shape', (list) => (list === 'signals' ? /group is missing, not a string$/ : /data is missing, not a list$/)],
	['null-list', (list) => new RegExp(`${list} is null, not a list$`)],
	['json-string', () => /the answer is a string, not an object$/],
];

describe('bad answers fail the run, never a short success', () => {
	it('every list operation, with page 1 good and page 2 a bad body of each kind', async () => {
		for (const walk of await walks()) {
			for (const [body, problem] of PROBLEMS) {
				await setFaults([{ path: walk.path, body, after: 1 }]);
				const asked = serviceUrls().length;
				const run = await walk.run();
				const context = `${walk.label}, ${body}`;
				expect(run.items, context).toEqual([]);
				expect(run.error?.name, context).toBe('NodeApiError');
				const list = walk.label.startsWith('Signal') ? 'signals' : 'data';
				expect(run.error?.message, context).toMatch(new RegExp(`^${escape(walk.label)}: the service's answer \\(${escape(walk.secondPage)}`));
				expect(run.error?.message, context).toMatch(problem(list));
				// No page was asked twice: a bad body is not retried into a different answer. Page 1, page 2, and at most
				// the two pages after it, which a walk whose pages page 1 predicts asks for while page 2 is read (nodes/shared/pages/collect.ts).
				const urls = serviceUrls().slice(asked);
				expect(new Set(urls).size, context).toBe(urls.length);
				expect(urls.length, context).toBeGreaterThanOrEqual(2);
				expect(urls.length, context).toBeLessThanOrEqual(walk.label === 'Job → Search' ? 4 : 2);
			}
		}
	}, 120_000);

	it('single-object answers: job, source, filters, collections and upload', async () => {
		const [job] = mock.service.store.jobsOf(mock.service.accounts()[0].account_id);
		const cases = [
			{ path: '/v2/jobs/', op: ['job', 'get', { jobId: job.job.job_id }], says: /^Job → Get: the service's answer does not match the API contract: job_id is missing, not an identifier$/ },
			{ path: '/v2/sources/id/', op: ['source', 'get', { source: { __rl: true, mode: 'id', value: job.job.source_id } }], says: /^Source → Get: .*source_id is missing, not an identifier$/ },
			{ path: '/v2/jobs/filters', op: ['job', 'getFilters', {}], says: /^Job → Get Filters: .*locations is missing, not a list$/ },
			{ path: '/v2/collections', op: ['collection', 'getAll', { returnAll: true }], says: /^Collection → Get Many: .*data is missing, not a list$/ },
		] as const;
		for (const { path, op, says } of cases) {
			await setFaults([{ path, body: 'wrong-shape' }]);
			const run = await runOperation(op[0], op[1], op[2]);
			expect(run.error?.message, path).toMatch(says);
			expect(run.items).toEqual([]);
		}
		await setFaults([{ path: '/api/subscribers/upload', body: 'html' }]);
		const upload = await runOperation('subscriber', 'upload', { emailAddresses: 'a@example.com' });
		expect(upload.error?.message).toBe('Subscriber → Upload: the service\'s answer does not match the API contract: the body is not JSON: an HTML page ("200 OK")');
	});

	it('with continueOnFail the failure is the item\'s error item, paired to it', async () => {
		await setFaults([{ path: '/v2/jobs', body: 'null-list', after: 1 }]);
		const run = await runOperation('job', 'search', { returnAll: true }, 'continueRegularOutput');
		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([
			{
				json: {
					error: "Job → Search: the service's answer (offset 100) does not match the API contract: data is null, not a list",
					errorDescription: expect.stringMatching(/^The run stopped rather than return part of the data/),
				},
				pairedItem: { item: 0 },
			},
		]);
	});
});

/** Puts an msw handler in front of the mock's own for one test: it rewrites the mock's real answer (`strip`: to a request without its query). */
async function withRewrite(path: string, rewrite: (body: Record<string, unknown>, url: URL) => void, test: () => Promise<void>, strip = false) {
	const handlers = mock.service.handlers;
	const rewriter = http.get(`${MOCK_API_URL}${path}`, async ({ request }) => {
		const asked = strip ? new Request(request.url.replace(/\?.*$/, ''), { headers: request.headers }) : request;
		const real = await getResponse(handlers.filter((h) => h !== rewriter), asked);
		const body = (await real!.json()) as Record<string, unknown>;
		rewrite(body, new URL(request.url));
		return HttpResponse.json(body, { status: real!.status });
	});
	handlers.unshift(rewriter);
	try {
		await test();
	} finally {
		handlers.splice(handlers.indexOf(rewriter), 1);
	}
}

describe('pages that fit the contract but not the walk', () => {
	it('a page short by 10 items in the middle of a walk fails, naming the page', async () => {
		await withRewrite('/jobs', (body, url) => {
			if (url.searchParams.get('offset') === '300') (body.data as unknown[]).splice(0, 10);
		}, async () => {
			const run = await runOperation('job', 'search', { returnAll: true });
			const total = mock.service.store.jobsOf(mock.service.accounts()[0].account_id).length;
			expect(run.items).toEqual([]);
			expect(run.error?.message).toBe(
				`Job → Search: the service's answer (offset 300) does not match the API contract: data holds 90 jobs, but offset 300 of ${total} in pages of 100 holds 100`,
			);
		});
	});

	it('a last page short by 10 items, with a total that never moved, fails with both numbers', async () => {
		const collection = await biggestCollection();
		await withRewrite('/collections/:id/sources', (body) => {
			if (body.cursor_source_id === undefined) (body.data as unknown[]).splice(0, 10);
		}, async () => {
			const run = await runOperation('source', 'getAllInCollection', { collection: { __rl: true, mode: 'id', value: collection }, returnAll: true });
			const { metrics } = await api(`/collections/${collection}/sources`);
			const total = (metrics as { count_sources: number }).count_sources;
			expect(run.items).toEqual([]);
			expect(run.error?.message).toBe(
				`Source → Get Many in Collection: the service's answer does not match the API contract: the walk collected ${(total - 10).toLocaleString('en-US')} items ` +
					`in ${Math.ceil(total / 100)} pages, but the service reported a total of ${total.toLocaleString('en-US')}, and that total did not change during the walk`,
			);
		});
	});

	it('a signals page that answers another page number, and a cursor that sends the walk back, fail', async () => {
		await withRewrite('/signals/problems', (body, url) => {
			if (url.searchParams.get('page') === '2') (body.pagination as { page: number }).page = 1;
		}, async () => {
			const run = await runOperation('signal', 'getAll', { group: 'problems', returnAll: true });
			expect(run.error?.message).toBe("Signal → Get Many: the service's answer (page 2) does not match the API contract: pagination.page is 1, but page 2 was asked for");
		});
		// A proxy that drops the query string: every page is the first again, with the same cursor.
		const collection = await biggestCollection();
		let cursor: unknown;
		await withRewrite('/collections/:id/sources', (body) => {
			cursor = body.cursor_source_id;
		}, async () => {
			const run = await runOperation('source', 'getAllInCollection', { collection: { __rl: true, mode: 'id', value: collection }, returnAll: true });
			expect(run.error?.message).toBe(
				`Source → Get Many in Collection: the service's answer (cursor_source_id ${String(cursor)}) does not match the API contract: ` +
					`the service sent the walk back to cursor_source_id ${String(cursor)}, which it had already answered`,
			);
		}, true);
	});

	it('records added while the walk runs move the total, and the walk still succeeds', async () => {
		let cycles = 0;
		await withRewrite('/jobs', (_body, url) => {
			// After each of the first three pages, a cycle adds, updates and deletes jobs.
			if (cycles < 3 && url.searchParams.get('offset') !== null) {
				cycles++;
				// Not awaited: the next page waits for the cycle at the data gate (it reads the data after it).
				void mock.service.processCycle();
			}
		}, async () => {
			const before = mock.service.store.jobsOf(mock.service.accounts()[0].account_id).length;
			const run = await runOperation('job', 'search', { returnAll: true });
			const after = mock.service.store.jobsOf(mock.service.accounts()[0].account_id).length;
			expect(run.error).toBeUndefined();
			expect(after).not.toBe(before);
			expect(run.items.length).toBe(after);
		});
	});
});
