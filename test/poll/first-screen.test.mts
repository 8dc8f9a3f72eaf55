// The Poll Trigger's first screen (version 1.1): Fetch Test Event works with the defaults, its items are shaped like the
// action node's (Output), and each error says what happened and what to do, as the action node's do.
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { loadPackages } from '../../harness/in-process/packages.mts';
import { PollTrigger } from '../../harness/in-process/poll.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { api, NODE_TYPE } from '../node/direct.mts';
import { POLL_TYPE, serviceCalls, trigger } from './setup.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

type Json = Record<string, unknown>;

describe('poll trigger first screen', () => {
	it('is named so that n8n\'s cut of " Trigger" still reads well, and version 1.1 is the default', async () => {
		const { description } = (await loadPackages()).nodeTypes.getByNameAndVersion(POLL_TYPE, 1.1);
		expect(description.displayName).toBe('Job Signals (Polling) Trigger');
		expect(description.displayName.replace(' Trigger', '')).toBe('Job Signals (Polling)');
		expect(description.defaultVersion).toBe(1.1);
		const jobsFrom = description.properties.filter((p) => p.name === 'jobsFrom');
		expect(jobsFrom.map((p) => [p.displayOptions?.show?.['@version'], p.default])).toEqual([
			[[1], 'source'],
			[[{ _cnd: { gte: 1.1 } }], 'search'],
		]);
		const source = description.properties.find((p) => p.name === 'source')!;
		expect(source.modes?.map((mode) => mode.hint)).toEqual([
			'Needed before Fetch Test Event: the company\'s naked domain, without https:// or www. (acme.com)',
			'Needed before Fetch Test Event: the company\'s source ID (src_000123)',
		]);
	});

	it('New Job with every default fetches a test event at once, Simplified as the action node\'s job', async () => {
		const newest = ((await api('/jobs')).data as Json[])[0];
		const tick = await trigger(mock, { event: 'newJob' }).tick('manual');
		expect(tick.error).toBeUndefined();
		const action = await runNode({ type: NODE_TYPE, parameters: { resource: 'job', operation: 'get', jobId: String(newest.job_id) }, credentials: { jobSignalsApi: mock.credentials } });
		expect(tick.items?.map((i) => i.json)).toEqual([action.items[0].json]);
		expect(Object.keys(tick.items![0].json).length).toBeLessThanOrEqual(10);
	});

	it('version 1 keeps One Source as New Job\'s default and raw items', async () => {
		const v1 = new PollTrigger({ type: POLL_TYPE, typeVersion: 1, parameters: { event: 'newJob' }, credentials: { jobSignalsApi: mock.credentials } });
		expect((await v1.tick('manual')).error?.message).toBe('Source is required: give a domain or a source ID');
		const signals = new PollTrigger({ type: POLL_TYPE, typeVersion: 1, parameters: { event: 'newSignal' }, credentials: { jobSignalsApi: mock.credentials } });
		const raw = ((await api('/signals/problems', { per_page: 1 })).signals as Json[])[0];
		expect((await signals.tick('manual')).items?.map((i) => i.json)).toEqual([raw]);
	});

	it('Raw and Selected Fields shape what polls emit', async () => {
		const raw = await trigger(mock, { event: 'newSignal', includeExisting: true, output: 'raw' }).tick();
		expect(raw.items!.length).toBeGreaterThan(10);
		expect(Object.keys(raw.items![0].json)).toContain('evidence_list');
		const selected = await trigger(mock, { event: 'newSignal', includeExisting: true, output: 'selected', fields: ['signal_id', 'info.category'] }).tick();
		expect(selected.items!.map((i) => i.json)).toEqual(raw.items!.map((i) => ({ signal_id: i.json.signal_id, info: { category: (i.json.info as Json).category } })));
		const simplified = await trigger(mock, { event: 'newSignal', includeExisting: true }).tick();
		for (const item of simplified.items!) expect(Object.keys(item.json).length).toBeLessThanOrEqual(10);
	});

	it('Selected Fields starts with the record\'s id chosen: signal_id for New Signal, job_id for New and Updated Job, kept beside picked fields unless removed', async () => {
		const { description } = (await loadPackages()).nodeTypes.getByNameAndVersion(POLL_TYPE, 1.1);
		const defaults = Object.fromEntries(
			['newSignal', 'newJob', 'updatedJob'].map((event) => [event, description.properties.filter((p) => p.name === 'fields' && p.displayOptions?.show?.event?.includes(event)).map((p) => p.default)]),
		);
		expect(defaults).toEqual({ newSignal: [['signal_id']], newJob: [['job_id']], updatedJob: [['job_id']] });
		const raw = (await trigger(mock, { event: 'newSignal', includeExisting: true, output: 'raw' }).tick()).items!.map((i) => i.json);
		expect(raw.length).toBeGreaterThan(0);
		const untouched = await trigger(mock, { event: 'newSignal', includeExisting: true, output: 'selected' }).tick();
		expect(untouched.items!.map((i) => i.json)).toEqual(raw.map((r) => ({ signal_id: r.signal_id })));
		const picked = await trigger(mock, { event: 'newSignal', includeExisting: true, output: 'selected', fields: ['signal_id', 'signal_severity'] }).tick();
		expect(picked.items!.map((i) => i.json)).toEqual(raw.map((r) => ({ signal_id: r.signal_id, signal_severity: r.signal_severity })));
		const removed = await trigger(mock, { event: 'newSignal', includeExisting: true, output: 'selected', fields: ['signal_severity'] }).tick();
		expect(removed.items!.map((i) => i.json)).toEqual(raw.map((r) => ({ signal_severity: r.signal_severity })));
		const newJob = await trigger(mock, { event: 'newJob', output: 'selected' }).tick('manual');
		expect(newJob.error).toBeUndefined();
		expect(newJob.items!.map((i) => Object.keys(i.json))).toEqual([['job_id']]);
	});

	it('a search the service cannot read fails Fetch Test Event and polls with the action node\'s error, before any request', async () => {
		const from = mock.answers().length;
		const tick = await trigger(mock, { event: 'newJob', search: '(python AND "senior" OR +,|-' }).tick('manual');
		expect(tick.error?.message).toBe('Search: quotes are not part of the service\'s syntax');
		expect(tick.error?.description).toContain('Also: AND, OR and NOT are not operators for the service; parentheses do not group');
		const polled = await trigger(mock, { event: 'newJob', locations: 'Berlin,,Munich' }).tick();
		expect(polled.error?.message).toBe('Locations: an empty entry');
		expect(serviceCalls(mock, from)).toEqual([]);
	});

	it('an empty answer says what happened and what to do, instead of n8n\'s "No data found" toast', async () => {
		const search = await trigger(mock, { event: 'newJob', search: '+zzzqqq+python' }).tick('manual');
		expect(search.error?.message).toBe('The search is valid and matched no job. Search read as "zzzqqq" and "python".');
		expect(search.error?.description).toMatch(/^Nothing is wrong with the syntax/);
		const literal = await trigger(mock, { event: 'newJob', search: 'engineer*' }).tick('manual');
		expect(literal.error?.description).toContain('* is not a wildcard');
	});

	it('an unknown domain reads as the action node\'s error', async () => {
		const parameters = { event: 'newJob', jobsFrom: 'source', source: { __rl: true, mode: 'domain', value: 'nowhere-at-all.com' } };
		const tick = await trigger(mock, parameters).tick('manual');
		const action = await runNode({ type: NODE_TYPE, parameters: { resource: 'job', operation: 'getAllForSource', source: parameters.source }, credentials: { jobSignalsApi: mock.credentials } });
		expect(tick.error?.message).toBe('The service tracks no company with the domain nowhere-at-all.com');
		expect(tick.error?.message).toBe(action.error?.message);
		expect(tick.error?.description).toBe(action.error?.description);
	});
});
