// Collections of the account and the sources of one collection (cursor pages, count_sources).
import { describe, expect, it } from 'vitest';
import { CURSOR_PARAMS, LIMITS, collectionsEnvelopeSchema, sourcesEnvelopeSchema } from '../src/base/contract.mts';
import { encodeCursor } from '../src/http/cursor.mts';
import { call, expectApiError, ok, SECOND_TOKEN, SMALL, useMock, walkCursor } from './harness.mts';

// Enough sources that a collection spans several cursor pages; few jobs and signals keep it fast.
const mock = useMock({ ...SMALL, sources: 2500, jobs: 500, signals: 100 });
const CURSOR = CURSOR_PARAMS.sources;

describe('collections', () => {
	it('lists only the account\'s own collections', async () => {
		const demo = await ok(collectionsEnvelopeSchema, '/collections');
		const second = await ok(collectionsEnvelopeSchema, '/collections', SECOND_TOKEN);
		expect(demo.data.length).toBeGreaterThan(1);
		expect(second.data.length).toBeGreaterThan(1);
		const demoIds = new Set(demo.data.map((c) => c.collection_id));
		expect(second.data.some((c) => demoIds.has(c.collection_id))).toBe(false);
	});

	it('walks every source of a collection once, in order, with count_sources on every page and no cursor on the last', async () => {
		const { store } = mock.service;
		const { data } = await ok(collectionsEnvelopeSchema, '/collections');
		const biggest = data.reduce((a, b) => (b.count_sources > a.count_sources ? b : a));
		expect(biggest.count_sources).toBeGreaterThan(LIMITS.cursorPageSize);
		for (const collection of data) {
			const pages = await walkCursor(sourcesEnvelopeSchema, `/collections/${collection.collection_id}/sources`, CURSOR);
			const sources = pages.flatMap((p) => p.data);
			expect(pages).toHaveLength(Math.max(1, Math.ceil(collection.count_sources / LIMITS.cursorPageSize)));
			pages.forEach((p, i) => {
				expect(p.metrics.count_sources).toBe(collection.count_sources);
				expect(p[CURSOR] === undefined).toBe(i === pages.length - 1);
			});
			const ids = sources.map((s) => s.source_id);
			expect(ids).toEqual([...new Set(ids)].sort());
			expect(ids).toHaveLength(collection.count_sources);
			for (const s of sources) {
				expect(s).toEqual(store.sources.get(s.source_id));
				expect(store.tracks('acc_demo', s.source_id)).toBe(true);
			}
		}
	});

	it('past the end gives empty data and still count_sources; a malformed cursor is 400', async () => {
		const { data } = await ok(collectionsEnvelopeSchema, '/collections', SECOND_TOKEN);
		const collection = data[0];
		const pages = await walkCursor(sourcesEnvelopeSchema, `/collections/${collection.collection_id}/sources`, CURSOR, SECOND_TOKEN);
		const last = pages.at(-1)?.data.at(-1);
		if (!last) throw new Error('the collection should have sources');
		const past = await ok(sourcesEnvelopeSchema, `/collections/${collection.collection_id}/sources?${CURSOR}=${encodeCursor(last.source_id)}`, SECOND_TOKEN);
		expect(past).toEqual({ data: [], metrics: { count_sources: collection.count_sources } });
		for (const cursor of ['!!!', encodeCursor('src 1'), '']) {
			expectApiError(await call(`/collections/${collection.collection_id}/sources?${CURSOR}=${cursor}`, { token: SECOND_TOKEN }), 400, new RegExp(`"${CURSOR}"`));
		}
	});

	it('answers 404 for an unknown collection and for another account\'s collection', async () => {
		expectApiError(await call('/collections/col_nope/sources'), 404, /col_nope/);
		const { data } = await ok(collectionsEnvelopeSchema, '/collections');
		expectApiError(await call(`/collections/${data[0].collection_id}/sources`, { token: SECOND_TOKEN }), 404);
	});
});
