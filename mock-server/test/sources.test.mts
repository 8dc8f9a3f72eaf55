// Source by domain and by source_id.
import { describe, expect, it } from 'vitest';
import { sourceSchema } from '../src/base/contract.mts';
import { call, expectApiError, ok, SECOND_TOKEN, useMock } from './harness.mts';

const mock = useMock();

describe('sources', () => {
	it('answers the same record by domain and by id', async () => {
		const { store } = mock.service;
		for (const source of [...store.sources.values()].slice(0, 5)) {
			const byDomain = await ok(sourceSchema, `/sources/${source.url_source}`);
			const byId = await ok(sourceSchema, `/sources/id/${source.source_id}`);
			expect(byDomain).toEqual(source);
			expect(byId).toEqual(byDomain);
		}
	});

	it('count_jobboard_jobs is the number of the source\'s jobs', async () => {
		const { store } = mock.service;
		const source = [...store.sources.values()][0];
		const body = await ok(sourceSchema, `/sources/id/${source.source_id}`);
		expect(body.count_jobboard_jobs).toBe([...store.jobs.values()].filter((j) => j.job.source_id === source.source_id).length);
		expect(body.count_jobboard_jobs).toBeGreaterThan(0);
	});

	it('answers 404 for an unknown domain or id, a www. form of a known domain, and a source the account does not track', async () => {
		const { store } = mock.service;
		const source = [...store.sources.values()].find((s) => !store.tracks('acc_second', s.source_id));
		if (!source) throw new Error('the seed should leave some sources untracked by the second account');
		expectApiError(await call('/sources/no-such-company.example'), 404, /no-such-company\.example/);
		expectApiError(await call('/sources/id/src_999999'), 404, /src_999999/);
		expectApiError(await call(`/sources/www.${source.url_source}`), 404);
		expectApiError(await call(`/sources/${source.url_source}`, { token: SECOND_TOKEN }), 404);
		expectApiError(await call(`/sources/id/${source.source_id}`, { token: SECOND_TOKEN }), 404);
	});
});
