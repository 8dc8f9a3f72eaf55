/**
 * `npm run bench:poll`: the built Job Signals Poll Trigger (dist/, loaded by
 * n8n-core's package loader, polled through n8n-core's PollContext with the
 * staging n8n 2.40 does; see harness/in-process/poll.mts) against the standalone mock
 * over real HTTP, with the service's rate limit of 60 requests per window
 * (reported in X-RateLimit-* headers, which the node's pacer follows). The mock
 * counts the requests.
 * 1. Requests per idle poll (job search, jobs of one source, signals).
 * 2. A poll that finds 1,000 new jobs (job search, 100 per page): requests
 *    against the floor ceil(1000 / 100), time, every job emitted once.
 * 3. The same for 1,000 new jobs of one source (cursor pages) and 1,000 new signals (1,000 per page).
 * New items go straight into the mock's store, five per second as a processing
 * cycle makes them, so exactly 1,000 are new. Exits non-zero if an idle poll
 * is not one request or a new item is not emitted exactly once.
 */
import type { INodeParameters } from 'n8n-workflow';
import { LIMITS } from '../contract/api';
import type { StoredJob } from 'job-signals-mock-server';
import { PollTrigger } from '../harness/in-process/poll.mts';
import { startLoggedMock, type LoggedMock } from './node/logged-mock.mts';
import { median } from './percentiles.mts';

const NEW_ITEMS = 1000;
const IDLE_POLLS = 20;
const PER_SECOND = 5;
/** 60 requests per window, as documented; windows of 15 s (time scale 0.25) so each scenario can start with a fresh one. */
const DATA = { seed: 42, sources: 2000, jobs: 20_000, signals: 20_000, rateLimit: LIMITS.requestsPerMinute, timeScale: 0.25 };
const WINDOW_MS = 60_000 * DATA.timeScale;
const TYPE = 'n8n-nodes-job-signals.jobSignalsPollTrigger';

interface Scenario {
	name: string;
	parameters: INodeParameters;
	field: string;
	pageSize: number;
	/** Adds NEW_ITEMS new items to the mock's store; returns their ids. */
	add(mock: LoggedMock): string[];
}

let serial = 0;
const nextSecond = (newest: number, i: number) => newest + 1 + Math.floor(i / PER_SECOND);

function addJobs(mock: LoggedMock, sourceId?: string): string[] {
	const { store } = mock.service;
	const jobs = sourceId ? store.jobsBySource.get(sourceId) ?? [] : store.jobsOf(store.accountList()[0].account_id);
	const [base] = jobs;
	const newest = Math.max(...[...store.jobs.values()].map((j) => j.job.created_at));
	return Array.from({ length: NEW_ITEMS }, (_, i) => {
		const id = `job_bench_${++serial}`;
		const at = nextSecond(newest, i);
		const job: StoredJob = { ...base, job: { ...base.job, job_id: id, created_at: at, updated_at: at } };
		store.addJob(job);
		return id;
	});
}

function addSignals(mock: LoggedMock): string[] {
	const { store } = mock.service;
	const base = store.signals.find((s) => s.info.group === 'problems' && s.signal_classification === 'direct' && s.signal_recency === 'active')!;
	const newest = store.signals[0].created_at;
	return Array.from({ length: NEW_ITEMS }, (_, i) => {
		const id = `sig_bench_${++serial}`;
		store.putSignal({ ...base, signal_id: id, created_at: nextSecond(newest, i) });
		return id;
	});
}

async function run(mock: LoggedMock, scenario: Scenario): Promise<string[]> {
	const credentials = { jobSignalsApi: { apiToken: mock.service.options.token, baseUrl: mock.apiUrl, appUrl: mock.appUrl } };
	const trigger = new PollTrigger({ type: TYPE, parameters: scenario.parameters, credentials });
	const activation = await trigger.tick();
	if (activation.error) throw activation.error;
	const activationCalls = mock.takeCalls().calls;
	const idleCalls: number[] = [];
	const idleMs: number[] = [];
	for (let i = 0; i < IDLE_POLLS; i++) {
		const started = performance.now();
		const tick = await trigger.tick();
		idleMs.push(performance.now() - started);
		if (tick.error || tick.items) throw new Error(`${scenario.name}: an idle poll emitted or failed`);
		idleCalls.push(mock.takeCalls().calls);
	}
	const added = scenario.add(mock);
	const started = performance.now();
	const found = await trigger.tick();
	const ms = performance.now() - started;
	const calls = mock.takeCalls();
	if (found.error) throw found.error;
	const emitted = (found.items ?? []).map((item) => String(item.json[scenario.field]));
	const once = new Set(emitted).size === emitted.length && emitted.length === added.length && added.every((id) => emitted.includes(id));
	const floor = Math.ceil(NEW_ITEMS / scenario.pageSize);
	// Goals: an idle poll is one request; a poll with new items emits each exactly once.
	if (idleCalls.some((n) => n !== 1) || !once) process.exitCode = 1;
	return [
		`${scenario.name}:`,
		`  activation: ${activationCalls} request(s), nothing emitted`,
		`  idle polls: ${IDLE_POLLS} polls, requests per poll ${Math.min(...idleCalls)}–${Math.max(...idleCalls)}, median ${median(idleMs).toFixed(1)} ms`,
		`  ${NEW_ITEMS} new: ${calls.calls} requests (floor ceil(${NEW_ITEMS}/${scenario.pageSize}) = ${floor}), ${calls.tooMany} × 429, ${ms.toFixed(0)} ms, emitted ${emitted.length}, each new item exactly once: ${once ? 'yes' : 'NO'}`,
	];
}

async function main() {
	const started = performance.now();
	const mock = await startLoggedMock(DATA);
	try {
		const sourceId = [...mock.service.store.sources.keys()][0];
		const scenarios: Scenario[] = [
			{ name: 'New Job, job search (offset pages of 100)', parameters: { event: 'newJob', jobsFrom: 'search', output: 'raw' }, field: 'job_id', pageSize: LIMITS.jobSearchPageSize, add: (m) => addJobs(m) },
			{
				name: 'New Job, one source (cursor pages of 100)',
				parameters: { event: 'newJob', jobsFrom: 'source', source: { __rl: true, mode: 'id', value: sourceId }, output: 'raw' },
				field: 'job_id',
				pageSize: LIMITS.cursorPageSize,
				add: (m) => addJobs(m, sourceId),
			},
			{
				name: 'New Signal, group problems (pages of 1,000)',
				parameters: { event: 'newSignal', group: 'problems', category: '', output: 'raw' },
				field: 'signal_id',
				pageSize: LIMITS.signalsMaxPerPage,
				add: addSignals,
			},
		];
		const lines = [
			`mock: ${DATA.jobs} jobs, ${DATA.signals} signals, ${DATA.sources} sources, ${DATA.rateLimit} requests per ${WINDOW_MS / 1000} s window; started in ${((performance.now() - started) / 1000).toFixed(1)} s`,
		];
		for (const [index, scenario] of scenarios.entries()) {
			// A scenario uses about half a window's requests: each starts with a fresh window, so none waits for the last one's.
			if (index > 0) await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
			lines.push(...(await run(mock, scenario)));
		}
		console.log(lines.join('\n'));
	} finally {
		await mock.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
