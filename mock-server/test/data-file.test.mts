// The `data` option (`--data FILE`): one's own sources, jobs, signals and collections beside or instead of the seed, and a clear error naming the record for a bad file (the CLI: cli-conventions.test.mts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APP_URL, call, DEMO_TOKEN, ok, SECOND_TOKEN, SMALL, useMock } from './harness.mts';
import {
	MOCK_CONTROL_PATHS, collectionsEnvelopeSchema, jobSchema, jobSearchEnvelopeSchema, jobsEnvelopeSchema, signalsEnvelopeSchema, sourceSchema, sourcesEnvelopeSchema,
} from '../src/base/contract.mts';
import { addData, DATA_FILE_COLLECTION_ID, DataFileError, type DataFileContent } from '../src/data/data-file.mts';
import { generateDataset } from '../src/data/generate.mts';
import { createMockService } from '../src/service.mts';

const EXAMPLE = join(__dirname, '../../mock-server/examples/data.json');
const example = (): DataFileContent => JSON.parse(readFileSync(EXAMPLE, 'utf8')) as DataFileContent;

describe('the example data file instead of the seed (sources: 0)', () => {
	const mock = useMock({ ...SMALL, sources: 0, data: EXAMPLE });

	it('serves the file\'s sources, jobs and signals to the accounts its collections name', async () => {
		const file = example();
		expect([mock.service.store.sources.size, mock.service.store.jobs.size, mock.service.store.signals.length]).toEqual([2, 3, 1]);
		const mine = (await ok(collectionsEnvelopeSchema, '/collections')).data.find((c) => c.collection_id === 'col_my_watchlist');
		expect(mine).toMatchObject({ name: 'My watchlist', count_sources: 2 });
		const sources = await ok(sourcesEnvelopeSchema, '/collections/col_my_watchlist/sources');
		expect(sources.data.map((s) => s.source_id).sort()).toEqual(['src_acme', 'src_globex']);
		// The job count is the mock's: the jobs it holds.
		expect(await ok(sourceSchema, '/sources/id/src_acme')).toEqual({ ...file.sources![0], count_jobboard_jobs: 2 });
		const jobs = await ok(jobsEnvelopeSchema, '/sources/acme-robotics.com/jobs');
		expect(jobs.data.map((j) => j.job_id)).toEqual(['job_acme_2', 'job_acme_1']);
		expect(await ok(jobSchema, '/jobs/job_globex_1')).toEqual(file.jobs![2]);
		const found = await ok(jobSearchEnvelopeSchema, '/jobs?search=kubernetes');
		expect(found.data.map((j) => j.job_id)).toEqual(['job_acme_2']);
		const signals = await ok(signalsEnvelopeSchema, '/signals/problems/it');
		expect(signals.signals).toEqual(file.signals);
		// The second account's collection holds Acme only.
		expect((await call('/sources/id/src_acme', { token: SECOND_TOKEN })).status).toBe(200);
		expect((await call('/sources/id/src_globex', { token: SECOND_TOKEN })).status).toBe(404);
	});

	it('keeps the data over a reset, and a cycle adds jobs with ids of its own', async () => {
		const answer = await call(MOCK_CONTROL_PATHS.process, { base: APP_URL, token: null, method: 'POST', body: { created: 5, updated: 0, deleted: 0, signals: 0 } });
		expect(answer.status).toBe(200);
		expect(mock.service.store.jobs.size).toBe(8);
		await mock.service.reset();
		expect([...mock.service.store.jobs.keys()].sort()).toEqual(['job_acme_1', 'job_acme_2', 'job_globex_1']);
	});
});

describe('data beside the seed', () => {
	it('adds to the generated records; with no collections, the file\'s sources are tracked by the demo account', async () => {
		const { collections: _none, ...file } = example();
		const service = await createMockService({ ...SMALL, data: file });
		try {
			expect(service.store.sources.size).toBe(SMALL.sources! + 2);
			expect(service.store.jobs.size).toBe(SMALL.jobs! + 3);
			const tracking = service.store.collectionsOf('acc_demo').find((c) => c.collection_id === DATA_FILE_COLLECTION_ID);
			expect(tracking).toMatchObject({ source_ids: ['src_acme', 'src_globex'], count_sources: 2 });
			expect(service.store.tracks('acc_second', 'src_acme')).toBe(false);
		} finally {
			service.close();
		}
	});

	it('lets a file\'s job belong to a seed source, whose job count follows', async () => {
		const seedOnly = await createMockService({ ...SMALL });
		const seedSource = seedOnly.store.sources.get('src_000001')!;
		seedOnly.close();
		const job = { ...example().jobs![0], job_id: 'job_mine', source_id: seedSource.source_id, url_source: seedSource.url_source, source_name: seedSource.name };
		const service = await createMockService({ ...SMALL, data: { jobs: [job] } });
		try {
			expect(service.store.sources.get('src_000001')!.count_jobboard_jobs).toBe(seedSource.count_jobboard_jobs + 1);
			expect(service.store.jobById('job_mine')).toEqual(job);
		} finally {
			service.close();
		}
	});
});

describe('a clone of an account (what `record` writes)', () => {
	it('takes ids of the mock\'s own form: created ones are numbered past them, and never retired as created', async () => {
		const file = example();
		file.jobs!.forEach((job, i) => (job.job_id = `job_00000${50 + i}`));
		file.signals![0].signal_id = 'sig_0000090';
		const service = await createMockService({ ...SMALL, sources: 0, data: file, maxCreatedRecords: 1 });
		try {
			const events = await service.processCycle({ created: 2, updated: 0, deleted: 0, signals: 2, domain_changes: 0 });
			// One event per account that sees the record: the ids once each.
			const ids = [...new Set(events.filter((e) => e.event_type !== 'job_deleted').map((e) => ('job_id' in e.event_data ? e.event_data.job_id : e.event_data.signal_id)))].sort();
			expect(ids).toEqual(['job_0000053', 'job_0000054', 'sig_0000091', 'sig_0000092']);
			// The cap of 1 retired the first created of each kind, none of the file's.
			expect([...service.store.jobs.keys()].sort()).toEqual(['job_0000050', 'job_0000051', 'job_0000052', 'job_0000054']);
			expect(service.store.signals.map((s) => s.signal_id).sort()).toEqual(['sig_0000090', 'sig_0000092']);
		} finally {
			service.close();
		}
	});

	it('keeps a count_jobboard_jobs the file gives; with sources: 0 the file\'s collections are the only ones', async () => {
		const file = example();
		file.sources![0].count_jobboard_jobs = 40;
		const service = await createMockService({ ...SMALL, sources: 0, data: file });
		try {
			expect(service.store.sources.get('src_acme')!.count_jobboard_jobs).toBe(40);
			expect(service.store.sources.get('src_globex')!.count_jobboard_jobs).toBe(1);
			expect(service.store.collectionsOf('acc_demo').map((c) => c.collection_id)).toEqual(['col_my_watchlist']);
			expect(service.store.collectionsOf('acc_volume')).toEqual([]);
		} finally {
			service.close();
		}
	});

	it('takes a signal that names a domain its source left, as a domain-url-change signal of the file says', async () => {
		const file = example();
		const move = { ...file.signals![0], signal_id: 'sig_move', info: { group: 'changes', category: 'url', type: 'domain-url-change' }, previous_value: 'acme-old.com', current_value: 'acme-robotics.com' };
		const before = { ...file.signals![0], signal_id: 'sig_before', url_source: 'acme-old.com' };
		const service = await createMockService({ ...SMALL, sources: 0, data: { ...file, signals: [...file.signals!, move, before] } });
		try {
			expect(service.store.signals.find((s) => s.signal_id === 'sig_before')?.url_source).toBe('acme-old.com');
		} finally {
			service.close();
		}
	});
});

describe('data and a state folder', () => {
	it('keeps the folder to the data it was written over: another file, or none, is refused', async () => {
		const { signals: _none, ...fewer } = example();
		const stateDir = mkdtempSync(join(tmpdir(), 'mock-data-state-'));
		const first = await createMockService({ ...SMALL, stateDir, data: EXAMPLE });
		first.close();
		for (const other of [undefined, fewer]) {
			await expect(createMockService({ ...SMALL, stateDir, data: other })).rejects.toThrow(/holds changes to another data set/);
			// The refusal let go of the folder: the file it was written over opens it again.
			const again = await createMockService({ ...SMALL, stateDir, data: EXAMPLE });
			again.close();
		}
	});
});

describe('a bad data file', () => {
	const withFile = (change: (file: DataFileContent) => unknown) => {
		const file = example();
		return change(file) ?? file;
	};
	const cases: [string, unknown, RegExp][] = [
		['a record failing its schema', withFile((f) => void (f.jobs![1].url_job = 'not a url')), /^the data option: jobs\[1\]\.url_job: Invalid URL$/],
		['a missing field', withFile((f) => void delete (f.signals![0] as { signal_id?: string }).signal_id), /: signals\[0\]\.signal_id: Invalid input/],
		['an unknown field', withFile((f) => void Object.assign(f.sources![1], { urlSource: 'x' })), /: sources\[1\]: Unrecognized key: "urlSource"/],
		['an unknown top-level key', withFile((f) => ({ ...f, source: [] })), /: the file: Unrecognized key: "source"/],
		['not an object', [], /: the file: Invalid input: expected object, received array/],
		['a job of an unknown source', withFile((f) => void (f.jobs![2].source_id = 'src_nope')), /: jobs\[2\]\.source_id: no source with id "src_nope"$/],
		['a job whose domain is not its source\'s', withFile((f) => void (f.jobs![0].url_source = 'globex.io')), /: jobs\[0\]\.url_source: "globex\.io" is not the domain of source "src_acme"/],
		['a deleted job', withFile((f) => void (f.jobs![0].deleted_at = 1789900000)), /: jobs\[0\]\.deleted_at: a loaded job is live/],
		['a duplicate source id', withFile((f) => void (f.sources![1].source_id = 'src_acme')), /: sources\[1\]\.source_id: duplicate id "src_acme"/],
		['a source id of the seed', withFile((f) => void (f.sources![0].source_id = 'src_000001')), /: sources\[0\]\.source_id: duplicate id "src_000001"/],
		['a duplicate domain', withFile((f) => void (f.sources![1].url_source = 'acme-robotics.com')), /: sources\[1\]\.url_source: duplicate domain "acme-robotics\.com"/],
		['a duplicate job id', withFile((f) => void (f.jobs![1].job_id = 'job_acme_1')), /: jobs\[1\]\.job_id: duplicate id "job_acme_1"/],
		['a job id of the seed', withFile((f) => void (f.jobs![0].job_id = 'job_0000001')), /: jobs\[0\]\.job_id: duplicate id "job_0000001"/],
		['a signal whose domain its source never left', withFile((f) => void (f.signals![0].url_source = 'acme-old.com')), /: signals\[0\]\.url_source: "acme-old\.com" is not the domain of source "src_acme"/],
		['a signal type outside its category', withFile((f) => void (f.signals![0].info.category = 'finance')), /: signals\[0\]\.info: problems\/finance\/outdated-legacy-systems is not a place in the signal hierarchy/],
		['a collection of an unknown account', withFile((f) => void (f.collections![1].account_id = 'acc_nope')), /: collections\[1\]\.account_id: no account with id "acc_nope" \(the accounts: acc_demo, /],
		['a collection of an unknown source', withFile((f) => void f.collections![0].source_ids.push('src_nope')), /: collections\[0\]\.source_ids\[2\]: no source with id "src_nope"/],
		['a collection id of the seed', withFile((f) => void (f.collections![0].collection_id = 'col_demo_1')), /: collections\[0\]\.collection_id: duplicate id "col_demo_1"/],
	];
	it.each(cases)('is refused: %s', async (_name, data, message) => {
		const failure = createMockService({ ...SMALL, data: data as DataFileContent });
		await expect(failure).rejects.toThrow(DataFileError);
		await expect(failure).rejects.toThrow(message);
	});

	it('is refused when the file cannot be read or is not JSON, naming the file', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'mock-data-'));
		const broken = join(dir, 'broken.json');
		writeFileSync(broken, '{"sources": [');
		await expect(createMockService({ ...SMALL, data: broken })).rejects.toThrow(new RegExp(`^${broken}: not JSON: `));
		await expect(createMockService({ ...SMALL, data: join(dir, 'missing.json') })).rejects.toThrow(/missing\.json: cannot read it: ENOENT$/);
		await expect(createMockService({ ...SMALL, data: dir })).rejects.toThrow(/cannot read it: EISDIR$/);
	});
});

describe('property: random changes to a valid data file', () => {
	// A small seed: the property is about the file's checks, not the generator.
	const seed = generateDataset({ seed: 7, sources: 5, jobs: 20, signals: 20, token: DEMO_TOKEN });
	const odd: fc.Arbitrary<unknown> = fc.oneof(
		fc.constantFrom(undefined, null, '', 0, -1, 1.5, 1e300, true, [], {}, [null], { toString: 1 }, 'src_acme', 'job_acme_1', 'acme-robotics.com', 'not a url', 'é'.repeat(5000)),
		fc.string({ unit: 'grapheme', maxLength: 20 }),
		fc.jsonValue({ maxDepth: 2 }),
	);
	/** One change: a field of one record set to an odd value (undefined: removed), a record repeated, or a list replaced. */
	const change = fc.oneof(
		{ weight: 6, arbitrary: fc.record({ list: fc.constantFrom('sources', 'jobs', 'signals', 'collections'), index: fc.nat(2), field: fc.option(fc.constantFrom('source_id', 'url_source', 'job_id', 'signal_id', 'collection_id', 'account_id', 'source_ids', 'created_at', 'url_job', 'categories', 'info', 'deleted_at', 'count_jobboard_jobs', 'unknown_field', 'description', 'name', 'location', 'job_title'), { nil: undefined }), value: odd }) },
		{ weight: 1, arbitrary: fc.record({ list: fc.constantFrom('sources', 'jobs', 'signals', 'collections'), repeat: fc.nat(2) }) },
		{ weight: 1, arbitrary: fc.record({ top: fc.constantFrom('sources', 'jobs', 'signals', 'collections', 'accounts'), value: odd }) },
	);

	it('is taken whole or refused with a DataFileError naming the record (or the file); never another error', async () => {
		const counts = { taken: 0, refused: 0 };
		await fc.assert(
			fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 2 }), async (changes) => {
				const file = example() as Record<string, unknown[] | unknown>;
				const named: string[] = [];
				for (const c of changes) {
					if ('top' in c) {
						if (c.value === undefined) delete file[c.top];
						else file[c.top] = c.value;
						named.push(c.top);
						continue;
					}
					const list = file[c.list];
					if (!Array.isArray(list) || list.length === 0) continue;
					const at = Math.min('repeat' in c ? c.repeat : c.index, list.length - 1);
					named.push(`${c.list}[`);
					// A source changed may leave the records that name it pointing nowhere: they are then the ones named.
					if (c.list === 'sources') named.push('jobs[', 'signals[', 'collections[');
					if ('repeat' in c) list.push(structuredClone(list[at]));
					else if (c.field === undefined) list[at] = c.value;
					else if (typeof list[at] === 'object' && list[at] !== null) {
						if (c.value === undefined) delete (list[at] as Record<string, unknown>)[c.field];
						else (list[at] as Record<string, unknown>)[c.field] = c.value;
					}
				}
				const content = JSON.parse(JSON.stringify(file)) as DataFileContent;
				const outcome = await addData(seed, content).then((added) => ({ added }), (error: unknown) => ({ error }));
				if ('added' in outcome) {
					counts.taken++;
					// Taken whole: every record of the file is in the data set.
					const { dataset } = outcome.added;
					const sizes = (name: 'sources' | 'jobs' | 'signals') => (Array.isArray(content[name]) ? content[name].length : 0);
					expect([dataset.sources.length, dataset.jobs.length, dataset.signals.length]).toEqual([seed.sources.length + sizes('sources'), seed.jobs.length + sizes('jobs'), seed.signals.length + sizes('signals')]);
					return;
				}
				counts.refused++;
				expect(outcome.error, String(outcome.error)).toBeInstanceOf(DataFileError);
				const message = (outcome.error as Error).message;
				expect(message.startsWith('the data option: '), message).toBe(true);
				// Named: a record of a list changed (or one that names a changed source), the list, or the file (a top-level change).
				expect(named.some((place) => message.includes(place)) || message.includes('the file'), `${message} names none of ${named.join(', ')}`).toBe(true);
				expect(message.length, message).toBeLessThan(600);
			}),
			{ numRuns: 300, seed: 3631 },
		);
		expect(counts.taken).toBeGreaterThan(4);
		expect(counts.refused).toBeGreaterThan(100);
	}, 60_000);

	it('a file cut anywhere is "not JSON", or a file taken whole, naming the file', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'mock-data-cut-'));
		const text = readFileSync(EXAMPLE, 'utf8');
		await fc.assert(
			fc.asyncProperty(fc.nat(text.length), async (cut) => {
				const path = join(dir, 'cut.json');
				writeFileSync(path, text.slice(0, cut));
				const outcome = await addData(seed, path).then(() => undefined, (error: unknown) => error as Error);
				if (cut >= text.trimEnd().length) expect(outcome).toBeUndefined();
				else {
					expect(outcome).toBeInstanceOf(DataFileError);
					expect(outcome!.message.startsWith(`${path}: not JSON: `), outcome!.message).toBe(true);
				}
			}),
			{ numRuns: 60, seed: 3632 },
		);
	});
});
