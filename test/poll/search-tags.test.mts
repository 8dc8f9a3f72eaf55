// New Job of "A Job Search" with Job Tags and Industry Tags, the action node's filters: the polls emit the jobs the mock's
// own filtered search holds, the tag lists load in the trigger, and the high-volume account's plan gets the clear error.
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { VOLUME_ACCOUNT_TOKEN } from 'job-signals-mock-server';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { loadOptions } from '../../harness/in-process/load-options.mts';
import { loadPackages } from '../../harness/in-process/packages.mts';
import { PollTrigger } from '../../harness/in-process/poll.mts';
import { allSearched, api } from '../node/direct.mts';
import { expectExactlyOnce, idsOf, POLL_TYPE, processCycle, serviceCalls, trigger, type CycleEvent } from './setup.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });
const bySearch = (filters: INodeParameters): INodeParameters => ({ event: 'newJob', jobsFrom: 'search', output: 'raw', ...filters });
const volume = () => ({ ...mock.credentials, apiToken: VOLUME_ACCOUNT_TOKEN });
/** A trigger on the high-volume account (setup.mts's `trigger` uses the demo account). */
const onVolume = (filters: INodeParameters) => new PollTrigger({ type: POLL_TYPE, parameters: bySearch(filters), credentials: { jobSignalsApi: volume() } });

const idsIn = (jobs: Record<string, unknown>[]) => jobs.map((job) => String(job.job_id));
const sorted = (values: string[]) => [...values].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || a.localeCompare(b));

async function accountTags() {
	return (await api('/jobs/filters')) as { job_tags: string[]; industry_tags: string[] };
}

describe('poll trigger: a job search with Job Tags and Industry Tags', () => {
	it('the fields and their lists are Job → Search\'s, shown for A Job Search, loaded from the account\'s Get Filters answer', async () => {
		const packages = await loadPackages();
		const trig = packages.nodeTypes.getByNameAndVersion(POLL_TYPE, 1).description.properties;
		const action = packages.nodeTypes.getByNameAndVersion('n8n-nodes-job-signals.jobSignals', 2).description.properties;
		for (const name of ['jobTags', 'industryTags']) {
			const field = trig.find((p) => p.name === name)!;
			expect(field.displayOptions).toEqual({ show: { event: ['newJob'], jobsFrom: ['search'] } });
			expect({ ...field, displayOptions: undefined }).toEqual({ ...action.find((p) => p.name === name)!, displayOptions: undefined });
		}
		const filters = await accountTags();
		const parameters = bySearch({});
		expect(filters.industry_tags.length).toBeGreaterThan(3);
		expect(await loadOptions({ type: POLL_TYPE, parameters, credentials: { jobSignalsApi: mock.credentials }, method: 'getJobTags' })).toEqual(
			sorted(filters.job_tags).map((tag) => ({ name: tag, value: tag })),
		);
		expect(await loadOptions({ type: POLL_TYPE, parameters, credentials: { jobSignalsApi: mock.credentials }, method: 'getIndustryTags' })).toEqual(
			sorted(filters.industry_tags).map((tag) => ({ name: tag, value: tag })),
		);
		// The high-volume account has no industry filter: an empty list, not an error.
		expect(await loadOptions({ type: POLL_TYPE, parameters, credentials: { jobSignalsApi: volume() }, method: 'getIndustryTags' })).toEqual([]);
	});

	it('polls emit exactly the jobs the service\'s own filtered search holds: the existing ones, then each new one once', async () => {
		const { job_tags: jobTags, industry_tags: industryTags } = await accountTags();
		const chosen = { jobTags: jobTags.slice(0, 2), industryTags: industryTags.slice(0, 3) };
		const query = { job_tags: chosen.jobTags, industry_tags: chosen.industryTags };
		const all = await allSearched({});
		let matching = await allSearched(query);
		// The filters filter: some jobs match, not all.
		expect(matching.length).toBeGreaterThan(0);
		expect(matching.length).toBeLessThan(all.length);
		let poller = trigger(mock, bySearch({ ...chosen, includeExisting: true }));
		const from = mock.answers().length;
		const first = await poller.tick();
		expect(first.error).toBeUndefined();
		expect([...idsOf(first, 'job_id')].sort()).toEqual([...idsIn(matching)].sort());
		expect(first.items!.map((item) => item.json)).toEqual(matching);
		// Sent as repeated parameters, like Job → Search's.
		const [call] = serviceCalls(mock, from);
		expect(call.query.getAll('job_tags')).toEqual(chosen.jobTags);
		expect(call.query.getAll('industry_tags')).toEqual(chosen.industryTags);
		const outputs: string[][] = [];
		const expected: string[] = [];
		for (let cycle = 1; cycle <= 12; cycle++) {
			const events: CycleEvent[] = await processCycle(mock);
			const before = new Set(idsIn(matching));
			matching = await allSearched(query);
			// New: created this cycle and in the filtered search now (an older job that now matches is not a new job).
			const created = new Set(events.filter((e) => e.event_type === 'job_created').map((e) => String(e.event_data.job_id)));
			expected.push(...idsIn(matching).filter((id) => created.has(id) && !before.has(id)));
			if (cycle % 5 === 0) poller = trigger(mock, bySearch({ ...chosen, includeExisting: true }), { state: poller.state() });
			const tick = await poller.tick();
			expect(tick.error).toBeUndefined();
			outputs.push(idsOf(tick, 'job_id'));
		}
		expect(expected.length).toBeGreaterThan(0);
		expectExactlyOnce(outputs, expected);
	});

	it('an expression may give one tag; anything but tags fails the poll with Job → Search\'s message', async () => {
		const { industry_tags: industryTags } = await accountTags();
		const one = await trigger(mock, bySearch({ industryTags: `={{ "${industryTags[0]}" }}`, includeExisting: true })).tick();
		expect(one.error).toBeUndefined();
		expect(idsOf(one, 'job_id')).toEqual(idsIn(await allSearched({ industry_tags: [industryTags[0]] })));
		const wrong = trigger(mock, bySearch({ jobTags: '={{ 42 }}' }));
		const tick = await wrong.tick();
		expect(tick.error?.message).toBe('Job Tags must be a list of tags, got 42');
		expect(wrong.state()).toBe('{}');
	});

	it('on the high-volume account, Industry Tags and Job Functions fail the poll with what to remove, the position untouched; Job Tags work', async () => {
		const industry = onVolume({ industryTags: ['software'] });
		for (const mode of ['trigger', 'manual'] as const) {
			const tick = await industry.tick(mode);
			expect(tick.items).toBeUndefined();
			expect(tick.error?.message).toBe('This account\'s plan has no industry filter — remove Industry Tags');
			expect(tick.error?.description).toMatch(/^The service answered: Invalid query parameter "industry_tags".*Job → Get Filters lists what this account can filter by\.$/);
			expect(tick.error?.httpCode).toBe('400');
		}
		expect(industry.state()).toBe('{}');
		const categories = onVolume({ categories: ['Engineering (Software)'] });
		expect((await categories.tick()).error?.message).toBe('This account\'s plan has no job function (category) filter — remove Job Functions');
		const tags = onVolume({ jobTags: ['remote'], includeExisting: true });
		const tick = await tags.tick();
		expect(tick.error).toBeUndefined();
		const expected = await allSearched({ job_tags: ['remote'] }, VOLUME_ACCOUNT_TOKEN);
		expect(expected.length).toBeGreaterThan(0);
		expect(tick.items!.map((item) => item.json)).toEqual(expected);
	});
});
