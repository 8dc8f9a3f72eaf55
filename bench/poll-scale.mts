/**
 * `npm run bench:poll-scale`: the built Poll Trigger (dist/ of the working directory, as bench:poll loads it)
 * on lists shaped like the tester's findings, against the standalone mock over real HTTP, with a rate limit far
 * above use (the mock reports it, and the node's pacer follows it instead of its 60-a-minute fallback for an API
 * without X-RateLimit headers): the figures are the node's and the mock's work, not the service's pacing.
 * 1. Updated Job on one source of 250,000 jobs (`--sources 1 --jobs 250000`): the activation walk (every
 *    page) and a change walk after a cycle of 3 updates on that source; time and the heap's peak above the
 *    mock's own (sampled every 20 ms, after a full GC before each walk).
 * 2. 50,000 jobs on one created_at second (the mock's data file): one poll with Include Existing Items on a job
 *    search; time, the heap's peak, and the saved state's size (JSON bytes).
 * Run with `node --expose-gc`. Exits non-zero if a poll fails or an item is not emitted exactly once.
 */
import type { INodeParameters } from 'n8n-workflow';
import { PollTrigger, type Tick } from '../harness/in-process/poll.mts';
import { bulkImport } from '../harness/in-process/bulk-import.mts';
import { startLoggedMock, type LoggedMock } from './node/logged-mock.mts';

const TYPE = 'n8n-nodes-job-signals.jobSignalsPollTrigger';
const SOURCE_JOBS = 250_000;
const BULK = 50_000;
const MB = 1024 * 1024;
const UNPACED = 1_000_000;

const gc = (globalThis as { gc?: () => void }).gc;

/** A poll's time, requests and the heap's peak above the heap before it (after a full GC). */
async function measured(mock: LoggedMock, poll: () => Promise<Tick>) {
	gc?.();
	const base = process.memoryUsage().heapUsed;
	let peak = base;
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
	const started = performance.now();
	try {
		const tick = await poll();
		peak = Math.max(peak, process.memoryUsage().heapUsed);
		if (tick.error) throw tick.error;
		return { tick, ms: performance.now() - started, peakMb: (peak - base) / MB, calls: mock.takeCalls().calls };
	} finally {
		clearInterval(sampler);
	}
}

const credentialsOf = (mock: LoggedMock) => ({ jobSignalsApi: { apiToken: mock.service.options.token, baseUrl: mock.apiUrl, appUrl: mock.appUrl } });
const ids = (tick: Tick) => (tick.items ?? []).map((item) => String(item.json.job_id));
const once = (emitted: string[], expected: string[]) => new Set(emitted).size === emitted.length && emitted.length === expected.length && new Set([...emitted, ...expected]).size === expected.length;

async function updatedJob(lines: string[]) {
	const mock = await startLoggedMock({ seed: 42, sources: 1, jobs: SOURCE_JOBS, signals: 0, rateLimit: UNPACED });
	try {
		const [sourceId] = mock.service.store.sources.keys();
		const parameters: INodeParameters = { event: 'updatedJob', source: { __rl: true, mode: 'id', value: sourceId }, output: 'raw' };
		const trigger = new PollTrigger({ type: TYPE, parameters, credentials: credentialsOf(mock) });
		const activation = await measured(mock, () => trigger.tick());
		const events = await mock.service.processCycle({ created: 0, updated: 3, deleted: 0, signals: 0 }, sourceId);
		const updated = [...new Set(events.filter((e) => e.event_type === 'job_updated').map((e) => String((e.event_data as { job_id: string }).job_id)))];
		mock.takeCalls();
		const change = await measured(mock, () => trigger.tick());
		const right = once(ids(change.tick), updated);
		if (!right) process.exitCode = 1;
		lines.push(
			`Updated Job, one source of ${SOURCE_JOBS.toLocaleString('en')} jobs (cursor pages of 100):`,
			`  activation (every page): ${activation.calls} requests, ${(activation.ms / 1000).toFixed(1)} s, heap peak +${activation.peakMb.toFixed(1)} MB, state ${trigger.state().length} bytes`,
			`  after 3 updates (every page): ${change.calls} requests, ${(change.ms / 1000).toFixed(1)} s, heap peak +${change.peakMb.toFixed(1)} MB, emitted ${ids(change.tick).length}, exactly the updated jobs: ${right ? 'yes' : 'NO'}`,
		);
	} finally {
		await mock.close();
	}
}

async function oneSecond(lines: string[]) {
	const mock = await startLoggedMock({ seed: 42, sources: 0, data: bulkImport(BULK, 0), rateLimit: UNPACED });
	try {
		const trigger = new PollTrigger({ type: TYPE, parameters: { event: 'newJob', jobsFrom: 'search', includeExisting: true, output: 'raw' }, credentials: credentialsOf(mock) });
		const poll = await measured(mock, () => trigger.tick());
		const expected = mock.service.store.jobsOf(mock.service.accounts()[0].account_id).map((j) => j.job.job_id);
		const right = once(ids(poll.tick), expected);
		if (!right) process.exitCode = 1;
		const state = Buffer.byteLength(JSON.stringify((JSON.parse(trigger.state()) as { pollState: unknown }).pollState));
		const idle = await measured(mock, () => trigger.tick());
		lines.push(
			`New Job, job search, ${BULK.toLocaleString('en')} jobs on one second (Include Existing Items):`,
			`  one poll: ${poll.calls} requests, ${(poll.ms / 1000).toFixed(1)} s, heap peak +${poll.peakMb.toFixed(1)} MB, emitted ${ids(poll.tick).length}, each once: ${right ? 'yes' : 'NO'}, saved state ${state} bytes`,
			`  the idle poll after: ${idle.calls} request(s), ${idle.ms.toFixed(0)} ms`,
		);
	} finally {
		await mock.close();
	}
}

async function main() {
	const lines = [`node ${process.version}, ${gc ? 'with' : 'WITHOUT'} --expose-gc, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`];
	for (const part of [updatedJob, oneSecond]) {
		try {
			await part(lines);
		} catch (error) {
			process.exitCode = 1;
			lines.push(`${part.name}: FAILED: ${(error as Error).message.slice(0, 300)}`);
		}
	}
	console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
