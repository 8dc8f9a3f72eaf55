// Jobs of a source, by domain and by source_id: cursor pages, newest first, metrics, bad cursors, unknown and untracked sources.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURSOR_PARAMS, LIMITS, jobsEnvelopeSchema, type Job } from '../src/base/contract.mts';
import { encodeCursor } from '../src/http/cursor.mts';
import { call, expectApiError, expectNewestFirst, ok, SECOND_TOKEN, useMock, walkCursor } from './harness.mts';

const mock = useMock();
const CURSOR = CURSOR_PARAMS.jobs;

/** The source's jobs as the test itself orders them: created_at descending, then job_id descending. */
function expectedJobs(sourceId: string): Job[] {
	return [...mock.service.store.jobs.values()]
		.map((j) => j.job)
		.filter((j) => j.source_id === sourceId)
		.sort((a, b) => b.created_at - a.created_at || (a.job_id < b.job_id ? 1 : -1));
}

function biggestSource() {
	const { store } = mock.service;
	return [...store.sources.values()].reduce((best, s) => (expectedJobs(s.source_id).length > expectedJobs(best.source_id).length ? s : best));
}

const byDomain = (domain: string) => `/sources/${domain}/jobs`;
const byId = (id: string) => `/sources/id/${id}/jobs`;

describe('jobs of a source', () => {
	it('walks every job exactly once, newest first, by domain and by id alike; the cursor is absent only on the final page', async () => {
		const source = biggestSource();
		const expected = expectedJobs(source.source_id);
		expect(expected.length).toBeGreaterThan(2 * LIMITS.cursorPageSize);
		for (const path of [byDomain(source.url_source), byId(source.source_id)]) {
			const pages = await walkCursor(jobsEnvelopeSchema, path, CURSOR);
			expect(pages).toHaveLength(Math.ceil(expected.length / LIMITS.cursorPageSize));
			pages.forEach((page, i) => {
				const last = i === pages.length - 1;
				expect(page.data.length).toBe(last ? expected.length - i * LIMITS.cursorPageSize : LIMITS.cursorPageSize);
				expect(page[CURSOR] === undefined).toBe(last);
				expect(page.metrics.count_jobs).toBe(expected.length);
				expect(page.metrics.updated_at).toBe(Math.max(...expected.map((j) => j.updated_at)));
			});
			const jobs = pages.flatMap((p) => p.data);
			expect(jobs.map((j) => j.job_id)).toEqual(expected.map((j) => j.job_id));
			expect(jobs).toEqual(expected);
			expectNewestFirst(jobs.map((j) => ({ created_at: j.created_at, id: j.job_id })));
		}
	});

	it('property: for any tracked source the pages join to its full job list, without duplicates', async () => {
		const { store } = mock.service;
		const sources = [...store.sources.values()];
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...sources), fc.boolean(), async (source, useDomain) => {
				const pages = await walkCursor(jobsEnvelopeSchema, useDomain ? byDomain(source.url_source) : byId(source.source_id), CURSOR);
				const ids = pages.flatMap((p) => p.data.map((j) => j.job_id));
				expect(new Set(ids).size).toBe(ids.length);
				expect(ids).toEqual(expectedJobs(source.source_id).map((j) => j.job_id));
				for (const page of pages) expect(page.metrics.count_jobs).toBe(ids.length);
			}),
			{ numRuns: 25 },
		);
	});

	it('answers a request past the end with empty data and still the metrics', async () => {
		const source = biggestSource();
		const expected = expectedJobs(source.source_id);
		const last = expected[expected.length - 1];
		const past = await ok(jobsEnvelopeSchema, `${byDomain(source.url_source)}?${CURSOR}=${encodeCursor(`${last.created_at}:${last.job_id}`)}`);
		expect(past.data).toEqual([]);
		expect(past[CURSOR]).toBeUndefined();
		expect(past.metrics.count_jobs).toBe(expected.length);
	});

	it('a cursor stays valid when the job it points at is deleted: the next page starts right after it', async () => {
		const source = biggestSource();
		const first = await ok(jobsEnvelopeSchema, byId(source.source_id));
		const cursor = first[CURSOR];
		expect(cursor).toBeDefined();
		mock.service.store.removeJob(first.data[first.data.length - 1].job_id);
		const second = await ok(jobsEnvelopeSchema, `${byId(source.source_id)}?${CURSOR}=${cursor}`);
		expect(second.data.map((j) => j.job_id)).toEqual(
			expectedJobs(source.source_id).slice(LIMITS.cursorPageSize - 1, 2 * LIMITS.cursorPageSize - 1).map((j) => j.job_id),
		);
	});

	it('answers 400 for a malformed cursor', async () => {
		const { source_id } = biggestSource();
		for (const cursor of ['!!!', 'abc', encodeCursor('not-a-key'), encodeCursor('123'), '', encodeURIComponent('MTIzOmpvYl8x=')]) {
			expectApiError(await call(`${byId(source_id)}?${CURSOR}=${cursor}`), 400, new RegExp(`"${CURSOR}"`));
		}
	});

	it('answers 404 for an unknown domain or id, and for a source only another account tracks', async () => {
		const { store } = mock.service;
		expectApiError(await call(byDomain('no-such-company.example')), 404, /no-such-company\.example/);
		expectApiError(await call(byId('src_999999')), 404, /src_999999/);
		const untracked = [...store.sources.values()].find((s) => !store.tracks('acc_second', s.source_id));
		const tracked = [...store.sources.values()].find((s) => store.tracks('acc_second', s.source_id));
		if (!untracked || !tracked) throw new Error('the seed should give the second account some sources, not all');
		expectApiError(await call(byDomain(untracked.url_source), { token: SECOND_TOKEN }), 404);
		expectApiError(await call(byId(untracked.source_id), { token: SECOND_TOKEN }), 404);
		const own = await ok(jobsEnvelopeSchema, byId(tracked.source_id), SECOND_TOKEN);
		expect(own.metrics.count_jobs).toBe(expectedJobs(tracked.source_id).length);
	});
});
