// The drift report (src/clone/drift.mts): each way an answer leaves the contract, found at its path, counted, one
// example each, and at most MAX_DRIFT_PATHS paths listed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jobSearchEnvelopeSchema, jobSchema, signalsEnvelopeSchema } from '../src/base/contract.mts';
import { generateDataset } from '../src/data/generate.mts';
import { checkPage, DriftReport, MAX_DRIFT_PATHS, MAX_EXAMPLE_CHARS, type Finding } from '../src/clone/drift.mts';
import { DEFAULT_OPTIONS } from '../src/options.mts';

const seed = generateDataset({ ...DEFAULT_OPTIONS, sources: 20, jobs: 200, signals: 200 });
const jobs = seed.jobs.map((j) => j.job);
const jobsPage = (data: unknown[]) => ({ data, metrics: { count_jobs: data.length, updated_at: 1_790_000_000 } });
const signalsPage = (signals: unknown[]) => ({
	group: 'changes',
	pagination: { page: 1, per_page: 1000, count_pages: 1, count_signals: signals.length, start_index: 0, end_index: signals.length, has_next: false, has_prev: false },
	signals,
});
const sorted = (findings: Finding[]) => findings.map((f) => `${f.path} ${f.kind}`).sort();

describe('checkPage', () => {
	it('finds nothing in answers that fit the contract', () => {
		expect(checkPage(jobSearchEnvelopeSchema, jobsPage(jobs))).toEqual([]);
		expect(checkPage(signalsEnvelopeSchema, signalsPage(seed.signals.filter((s) => s.info.group === 'changes')))).toEqual([]);
	});

	it('a renamed field is one missing and one added; another type, an unknown enum value, a broken rule each their kind', () => {
		const { job_title, ...rest } = jobs[0];
		const renamed = { ...rest, title: job_title, salary: { min: 1 } };
		const typed = { ...jobs[1], created_at: '2026-09-21' };
		const enums = { ...jobs[2], categories: ['Astrology'] };
		const broken = { ...jobs[3], url_job: 'not a url' };
		expect(checkPage(jobSearchEnvelopeSchema, jobsPage([renamed, typed, enums, broken]))).toEqual(
			expect.arrayContaining([
				{ path: 'data[].job_title', kind: 'missing', expected: 'string' },
				{ path: 'data[].title', kind: 'added', expected: 'no such field', value: JSON.stringify(job_title) },
				{ path: 'data[].salary', kind: 'added', expected: 'no such field', value: '{"min":1}' },
				{ path: 'data[].created_at', kind: 'type', expected: 'number', value: '"2026-09-21"' },
				expect.objectContaining({ path: 'data[].categories[]', kind: 'enum', value: '"Astrology"' }),
				expect.objectContaining({ path: 'data[].url_job', kind: 'invalid', value: '"not a url"' }),
			]),
		);
		expect(checkPage(jobSearchEnvelopeSchema, jobsPage([renamed, typed, enums, broken]))).toHaveLength(6);
	});

	it('an unknown value of a nested enum and of a union of literals (a level 1-3) are enum findings; a missing envelope field is found too', () => {
		const signal = seed.signals.find((s) => s.info.group === 'changes');
		const findings = checkPage(signalsEnvelopeSchema, { ...signalsPage([{ ...signal, info: { ...signal?.info, type: 'stock-split' }, signal_match: 5 }]), pagination: undefined });
		expect(sorted(findings)).toEqual(['pagination missing', 'signals[].info.type enum', 'signals[].signal_match enum']);
		expect(findings.find((f) => f.path === 'signals[].signal_match')).toEqual({ path: 'signals[].signal_match', kind: 'enum', expected: '1, 2, 3', value: '5' });
	});

	// fast-check: numRuns 200, seed 3801.
	it('for any contract job with one field taken away and one unknown field added: exactly that missing and that added', () => {
		const required = Object.entries(jobSchema.shape).filter(([, field]) => !field.safeParse(undefined).success).map(([name]) => name);
		const unknown = fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !(key in jobSchema.shape) && key !== '__proto__');
		fc.assert(
			fc.property(fc.constantFrom(...jobs), fc.constantFrom(...required), unknown, fc.jsonValue(), (job, removed, added, value) => {
				const record: Record<string, unknown> = { ...job, [added]: value };
				delete record[removed];
				expect(sorted(checkPage(jobSearchEnvelopeSchema, jobsPage([record])))).toEqual(sorted([
					{ path: `data[].${removed}`, kind: 'missing', expected: '' },
					{ path: `data[].${added.length > 60 ? `${added.slice(0, 60)}…` : added}`, kind: 'added', expected: '' },
				]));
			}),
			{ numRuns: 200, seed: 3801 },
		);
	});

	it('cuts examples and field names: a finding never copies a large answer', () => {
		const huge = 'x'.repeat(10_000);
		const [finding] = checkPage(jobSearchEnvelopeSchema, jobsPage([{ ...jobs[0], [huge]: huge }]));
		expect(finding.path).toBe(`data[].${'x'.repeat(60)}…`);
		expect(finding.value).toBe(`"${'x'.repeat(MAX_EXAMPLE_CHARS - 1)}…`);
	});
});

describe('DriftReport', () => {
	it('counts each finding over every record of every page, per endpoint, with the first example', () => {
		const report = new DriftReport();
		for (let page = 0; page < 3; page++) report.check('GET /jobs', `/jobs?offset=${page * 100}`, jobSearchEnvelopeSchema, jobsPage(jobs.slice(0, 100).map((j, i) => ({ ...j, salary: page * 100 + i }))));
		report.check('GET /signals/{group}', '/signals/changes?page=1', signalsEnvelopeSchema, signalsPage([]));
		const summary = report.summary();
		expect(summary).toEqual({
			fits: false,
			pages: 4,
			findings: [{ endpoint: 'GET /jobs', path: 'data[].salary', kind: 'added', expected: 'no such field', value: '0', count: 300, page: '/jobs?offset=0' }],
			unlisted: 0,
			max_paths: MAX_DRIFT_PATHS,
		});
		expect(report.lines()).toEqual([
			'the answers drift from the contract (4 pages checked):',
			'  GET /jobs',
			'    data[].salary: not in the contract, e.g. 0 (300×; e.g. /jobs?offset=0)',
		]);
	});

	it('fits when nothing drifted', () => {
		const report = new DriftReport();
		report.check('GET /jobs', '/jobs?offset=0', jobSearchEnvelopeSchema, jobsPage(jobs));
		expect(report.drifted).toBe(false);
		expect(report.summary()).toMatchObject({ fits: true, findings: [], unlisted: 0 });
		expect(report.lines()).toEqual(['the answers fit the contract (1 pages checked)']);
	});

	it(`lists ${MAX_DRIFT_PATHS} distinct paths at most: at the cap all are listed, past it the rest are counted`, () => {
		const withFields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`extra_${String(i).padStart(3, '0')}`, i]));
		const atCap = new DriftReport();
		atCap.check('GET /jobs', '/jobs?offset=0', jobSearchEnvelopeSchema, jobsPage([{ ...jobs[0], ...withFields(MAX_DRIFT_PATHS) }]));
		expect(atCap.summary().findings).toHaveLength(MAX_DRIFT_PATHS);
		expect(atCap.summary().unlisted).toBe(0);
		expect(atCap.lines().at(-1)).not.toMatch(/more findings/);

		const past = new DriftReport();
		// Two records: the listed paths are counted twice, the ones past the cap not listed, each occurrence counted.
		past.check('GET /jobs', '/jobs?offset=0', jobSearchEnvelopeSchema, jobsPage([0, 1].map(() => ({ ...jobs[0], ...withFields(MAX_DRIFT_PATHS + 5) }))));
		const summary = past.summary();
		expect(summary.findings).toHaveLength(MAX_DRIFT_PATHS);
		expect(summary.findings.every((f) => f.count === 2)).toBe(true);
		expect(summary.unlisted).toBe(10);
		expect(past.lines().at(-1)).toBe(`  and 10 more findings at other paths (the report lists ${MAX_DRIFT_PATHS} paths at most)`);
	});
});
