/**
 * The poll trigger's end-to-end setup, shared by the test files that run it in
 * a real n8n (the default scheduler, n8n's durable poll cursors, queue mode).
 * Three published workflows poll the mock every POLL_EVERY_S seconds: New
 * Signal of each group and New Job of a job search over all the account's jobs.
 * The mock's cycles make the events; what must come out is compared
 * with the events `POST /__mock/process` returned, counted from n8n's REST API.
 * n8n refuses a Poll Time that fires more than once a minute ("The polling
 * interval is too short": n8n 2.40 any seconds field but one number, n8n 1.123
 * one with a `*`), but not many Poll Times: each workflow has one a minute per
 * POLL_EVERY_S seconds, each on its own second.
 *
 * The node's requests go through a small counting proxy in this process (the
 * credential's base URL), so a test knows when polls happened: it waits for
 * conditions (items appearing, at least two more polls), never for a fixed time.
 */
import { watch } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'flatted';
import { expect } from 'vitest';
import { DEMO_TOKEN } from '../../harness/n8n/real-n8n.mts';
import { executionsOf, startDeployment, type Deployment, type Mode } from '../../harness/n8n/deployment.mts';

const POLL_TYPE = 'n8n-nodes-job-signals.jobSignalsPollTrigger';
export const NODE = 'Job Signals Poll Trigger';
const CREDENTIAL = { id: 'e2ePollCred', name: 'Job Signals poll e2e' };

export interface PollWorkflow {
	id: string;
	/** The service path its polls read (what the proxy log and the fault rules match). */
	path: string;
	/** The field that names an item. */
	idField: 'signal_id' | 'job_id';
	parameters: Record<string, unknown>;
}

export const WORKFLOWS: PollWorkflow[] = [
	{ id: 'e2ePollProblems', path: '/v2/signals/problems', idField: 'signal_id', parameters: { event: 'newSignal', group: 'problems', category: '', directOnly: false, activeOnly: false } },
	{ id: 'e2ePollChanges', path: '/v2/signals/changes', idField: 'signal_id', parameters: { event: 'newSignal', group: 'changes', category: '', directOnly: false, activeOnly: false } },
	{ id: 'e2ePollJobs', path: '/v2/jobs', idField: 'job_id', parameters: { event: 'newJob', jobsFrom: 'search', search: '', locations: '', categories: [] } },
];
export const [PROBLEMS, CHANGES, JOBS] = WORKFLOWS;

/**
 * How often every poll trigger of these files polls. Every wait of these tests is on polls (at least two more, the
 * first two), so it sets their length. n8n would poll every second (twenty Poll Times a minute run); every 2 s leaves
 * an idle poll (one request) room on a busy machine, and a poll that outlasts it is skipped by the node, with the
 * expression engine of POLL_ENV.
 */
export const POLL_EVERY_S = 2;

/**
 * What every n8n process of the poll files runs with: n8n's legacy expression engine. Under its default (`vm`), n8n
 * 2.40 and 2.41 start a poll at each poll time and end it by releasing the workflow's expression isolate, also when that
 * poll did not take it (`acquireIsolate()`'s "already held" answer is not read in n8n-core's poll-trigger-executor.js);
 * a poll still running then fails its next request, whose credential header is an expression ("No bridge acquired"),
 * which the node reports as "no answer — 4 attempts". Any poll longer than the interval can meet it, so a test on the
 * default engine depends on the machine's speed. n8n 1.123 reads the answer. Measured: test/e2e/poll-overlap.measure.mts.
 */
export const POLL_ENV = { N8N_EXPRESSION_ENGINE: 'legacy' };

/**
 * The mock the poll tests run on: 300 signals, not 2,000 (with 2,000 an idle poll of a group read a first page of
 * 450 KB, its size in a cut-off page's error); 2,000 jobs. No rate limit: the node's pacing is tested in test/poll.
 */
export const MOCK_FLAGS = ['--jobs', '2000', '--signals', '300', '--sources', '60', '--rate-limit', '0'];

/** Poll Times for a poll every `everyS` seconds (a divisor of 60), starting at second `offset` of the minute (triggers side by side are spread). */
export function pollTimes(offset: number, everyS = POLL_EVERY_S) {
	const seconds = Array.from({ length: 60 / everyS }, (_, i) => (i * everyS + offset) % 60);
	return { item: seconds.map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) };
}

function pollWorkflow(workflow: PollWorkflow, index: number) {
	return {
		id: workflow.id,
		name: workflow.id,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${workflow.id}-poll`,
				name: NODE,
				type: POLL_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: pollTimes(index), ...workflow.parameters },
				credentials: { jobSignalsApi: CREDENTIAL },
			},
		],
		connections: {},
		pinData: {},
	};
}

export interface Logged {
	path: string;
	query: URLSearchParams;
	/** 0: the connection failed or was dropped. */
	status: number;
	started: number;
	ended?: number;
}

interface CountingProxy {
	url: string;
	log: Logged[];
	/** Called when an answer has been passed on in full. */
	onAnswered?: (entry: Logged) => void;
	/** Holds the requests to `path` (not yet sent to the mock) until the function returned is called. */
	hold(path: string): () => void;
	/** How many requests to `path` are held. */
	waiting(path: string): number;
	close(): Promise<void>;
}

/** A pass-through proxy to the mock that logs every request the node sends. */
async function startCountingProxy(target: string): Promise<CountingProxy> {
	const log: Logged[] = [];
	const held = new Map<string, (() => void)[]>();
	const upstream = new URL(target);
	const server: Server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', target);
		const waiting = held.get(url.pathname);
		if (waiting) waiting.push(send);
		else send();

		function send() {
			// Logged when sent to the mock: a held request started when it was let go.
			const entry: Logged = { path: url.pathname, query: url.searchParams, status: 0, started: Date.now() };
			log.push(entry);
			// A new connection per request (agent: false): a kept-alive one that the mock closes after 5 idle seconds can
			// be reused as it closes (ECONNRESET), which polls a few seconds apart hit and a failed poll would count.
			const forward = request(
				{ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host }, agent: false },
				(answer) => {
					entry.status = answer.statusCode ?? 0;
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
					answer.on('end', () => {
						entry.ended = Date.now();
						proxy.onAnswered?.(entry);
					});
				},
			);
			forward.on('error', () => {
				entry.ended = Date.now();
				res.destroy();
			});
			req.pipe(forward);
		}
	});
	// The same race on n8n's side: this server never closes an idle kept-alive connection (n8n's client does).
	server.keepAliveTimeout = 0;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const proxy: CountingProxy = {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		log,
		hold(path) {
			held.set(path, []);
			return () => {
				const waiting = held.get(path) ?? [];
				held.delete(path);
				for (const send of waiting) send();
			};
		},
		waiting: (path) => held.get(path)?.length ?? 0,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
	return proxy;
}

interface CycleEvent {
	account_id: string;
	event_type: string;
	event_data: { job_id?: string; signal_id?: string; info?: { group?: string } };
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Checks every `everyMs` (a second: most checks read n8n's REST API; the proxy's log is free to read more often). */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 150_000, everyMs = 1000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await pause(everyMs);
	}
}

/** Logs how long a part of a run took (`[phase] …`): where an e2e file's time goes. */
export function logPhase(what: string, since: number): void {
	console.log(`[phase] ${what}: ${((Date.now() - since) / 1000).toFixed(1)} s`);
}

export interface Observed {
	executions: number;
	/** Ids in every successful execution's output, one entry per item. */
	emitted: string[];
	/** Failed executions: their error messages. */
	errors: string[];
}

/** What n8n's REST API holds for a workflow: its executions, the items they output, the failed ones. */
export async function observe(deployment: Deployment, workflow: PollWorkflow): Promise<Observed> {
	const executions = await executionsOf(deployment, workflow.id);
	const emitted: string[] = [];
	const errors: string[] = [];
	for (const execution of executions) {
		const run = parse(execution.data) as {
			resultData: { error?: { message?: string; description?: string }; runData: Record<string, { data?: { main: ({ json: Record<string, unknown> }[] | null)[] }; error?: { message?: string } }[]> };
		};
		if (execution.status === 'success') {
			for (const task of run.resultData.runData[NODE] ?? []) emitted.push(...(task.data?.main[0] ?? []).map((item) => String(item.json[workflow.idField])));
		} else {
			const error = run.resultData.error ?? run.resultData.runData[NODE]?.[0]?.error;
			errors.push(`${execution.status}: ${error?.message ?? '(no message)'}${'description' in (error ?? {}) ? ` — ${(error as { description?: string }).description}` : ''}`);
		}
	}
	return { executions: executions.length, emitted, errors };
}

const repeated = (ids: string[]) => [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];

export type PollRun = Awaited<ReturnType<typeof startPollRun>>;

/** A deployment with the three poll workflows published, the counting proxy, and the demo account's events as the cycles made them. */
export async function startPollRun(mode: Mode, processEnv: NodeJS.ProcessEnv = {}) {
	const began = Date.now();
	/** Where the run's time went, in ms: waits for items, for polls, n8n down and up again (logged by close()). */
	const spent = { setUp: 0, firstPolls: 0, items: 0, polls: 0, downAndUp: 0 };
	let proxy!: CountingProxy;
	const deployment: Deployment = await startDeployment(
		mode,
		MOCK_FLAGS,
		[],
		async (n8n) => {
			proxy = await startCountingProxy(n8n.mock.appUrl);
			await n8n.importCredentials([{ ...CREDENTIAL, type: 'jobSignalsApi', data: { apiToken: DEMO_TOKEN, baseUrl: `${proxy.url}/v2`, appUrl: n8n.mock.appUrl, accessToken: '' } }]);
			await n8n.importWorkflows(WORKFLOWS.map(pollWorkflow));
			for (const workflow of WORKFLOWS) await n8n.publish(workflow.id);
		},
		{ ...POLL_ENV, ...processEnv },
	);
	spent.setUp = Date.now() - began;
	logPhase(`${mode} n8n set up (package, credentials, workflows) and started`, began);
	/** n8n starts (every process of the deployment at once), the first included. */
	let starts = 1;
	/** The demo account's events, each with when its cycle ran. */
	const events: (CycleEvent & { cycle: number; at: number; done: number })[] = [];
	let cycles = 0;

	/** One processing cycle; `sizes` as `POST /__mock/process` takes them (the usual cycle without). */
	async function cycle(sizes: { created?: number } = {}): Promise<void> {
		const at = Date.now();
		const response = await fetch(`${deployment.n8n.mock.appUrl}/__mock/process`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sizes) });
		expect(response.status).toBe(200);
		const { events: all } = (await response.json()) as { events: CycleEvent[] };
		cycles++;
		const done = Date.now();
		events.push(...all.filter((e) => e.account_id === 'acc_demo').map((e) => ({ ...e, cycle: cycles, at, done })));
	}

	async function setFaults(faults: object[]): Promise<void> {
		const response = await fetch(`${deployment.n8n.mock.appUrl}/__mock/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults }) });
		expect(response.status).toBe(200);
	}

	/** The ids a workflow must emit: new signals of its group, or every job created. */
	function expectedIds(workflow: PollWorkflow): string[] {
		if (workflow.idField === 'signal_id') {
			const group = workflow.parameters.group;
			return events.filter((e) => e.event_type === 'signal' && e.event_data.info?.group === group).map((e) => String(e.event_data.signal_id));
		}
		return events.filter((e) => e.event_type === 'job_created').map((e) => String(e.event_data.job_id));
	}

	/**
	 * Created jobs a poll could not see: deleted by a cycle before any job-search
	 * request was answered after the cycle that created them (or by the same cycle).
	 */
	function unseeable(): Set<string> {
		const out = new Set<string>();
		for (const created of events.filter((e) => e.event_type === 'job_created')) {
			const id = String(created.event_data.job_id);
			const deletion = events.find((e) => e.event_type === 'job_deleted' && String(e.event_data.job_id) === id);
			if (!deletion) continue;
			const polledBetween = proxy.log.some((r) => r.path === JOBS.path && r.status === 200 && r.started > created.done && (r.ended ?? Infinity) < deletion.at);
			if (!polledBetween) out.add(id);
		}
		return out;
	}

	/** Waits until each workflow emitted every id it must (a job deleted before a poll could see it aside). */
	async function waitForAll(timeoutMs?: number): Promise<void> {
		const since = Date.now();
		const missing = async (workflow: PollWorkflow) => {
			const emitted = new Set((await observe(deployment, workflow)).emitted);
			const excused = workflow === JOBS ? unseeable() : new Set<string>();
			return expectedIds(workflow).filter((id) => !emitted.has(id) && !excused.has(id));
		};
		for (const workflow of WORKFLOWS) {
			await waitFor(`every new item of ${workflow.id} in an execution`, async () => (await missing(workflow)).length === 0, timeoutMs).catch(async (error: unknown) => {
				// What a failure needs to be read: what is missing where, what n8n ran, and when the polls were.
				const lines = [];
				for (const w of WORKFLOWS) {
					const observed = await observe(deployment, w);
					const polls = proxy.log.filter((r) => r.path === w.path).slice(-4).map((r) => `${new Date(r.started).toISOString().slice(11, 23)} ${r.status}`);
					lines.push(`${w.id}: missing ${JSON.stringify(await missing(w))}, ${observed.executions} executions, errors ${JSON.stringify(observed.errors)}, last polls ${polls.join(', ')}`);
				}
				const cycled = events.map((e) => new Date(e.at).toISOString().slice(11, 23));
				throw new Error(`${(error as Error).message}\n${lines.join('\n')}\ncycles at ${[...new Set(cycled)].join(', ')}`);
			});
		}
		spent.items += Date.now() - since;
	}

	/** Successful requests of each workflow's list that started after `since`. */
	const pollsSince = (workflow: PollWorkflow, since: number) => proxy.log.filter((r) => r.path === workflow.path && r.status === 200 && r.started > since && r.ended !== undefined).length;

	async function waitForPolls(count: number, timeoutMs?: number): Promise<void> {
		const since = Date.now();
		for (const workflow of WORKFLOWS) await waitFor(`${count} more polls of ${workflow.id}`, async () => pollsSince(workflow, since) >= count, timeoutMs, 250);
		spent.polls += Date.now() - since;
	}

	/** Every n8n process stopped (`restart`) or killed (`crash`), `whileDown`, then started again; timed. */
	async function downAndUp(how: 'restart' | 'crash', whileDown?: () => Promise<void>): Promise<void> {
		const since = Date.now();
		starts++;
		// deployment.crash signals every process before its first await: so does this.
		await run.deployment[how](whileDown);
		spent.downAndUp += Date.now() - since;
		logPhase(`n8n ${how === 'crash' ? 'killed' : 'stopped'} and started again`, since);
	}

	/** The exactly-once figures of one workflow, after at least two more polls found nothing new. */
	async function figures(workflow: PollWorkflow) {
		const observed = await observe(deployment, workflow);
		const expected = expectedIds(workflow);
		const excused = workflow === JOBS ? unseeable() : new Set<string>();
		const emitted = new Set(observed.emitted);
		return {
			events: expected.length,
			executions: observed.executions,
			failed: observed.errors.length,
			items: observed.emitted.length,
			missing: expected.filter((id) => !emitted.has(id) && !excused.has(id)),
			duplicates: repeated(observed.emitted),
			unexpected: [...emitted].filter((id) => !expected.includes(id)),
			deletedBeforeAnyPoll: expected.filter((id) => excused.has(id) && !emitted.has(id)).length,
			errors: observed.errors,
		};
	}

	/** Each workflow's figures, counts instead of id lists, for a `[measured]` line. */
	async function summary(): Promise<Record<string, object>> {
		const all: Record<string, object> = {};
		for (const workflow of WORKFLOWS) {
			const result = await figures(workflow);
			all[workflow.id] = { ...result, missing: result.missing.length, duplicates: result.duplicates.length, unexpected: result.unexpected.length };
		}
		return all;
	}

	// A trigger records where its list stands on its first poll, and a cycle before that is old news to it. n8n's default
	// scheduler keeps the poll it runs at activation; its durable scheduler runs one too but keeps no cursor from it
	// (seen in poller_state: the first cursor came from the first scheduled poll). Every case starts after two polls.
	const firstPolls = Date.now();
	for (const workflow of WORKFLOWS) await waitFor(`the first two polls of ${workflow.id}`, async () => pollsSince(workflow, 0) >= 2, undefined, 250);
	spent.firstPolls = Date.now() - firstPolls;
	logPhase('the first two polls', firstPolls);

	const run = {
		deployment,
		proxy,
		events,
		get cycles() {
			return cycles;
		},
		cycle,
		setFaults,
		expectedIds,
		waitForAll,
		pollsSince,
		waitForPolls,
		figures,
		summary,
		restart: (whileDown?: () => Promise<void>) => downAndUp('restart', whileDown),
		crash: (whileDown?: () => Promise<void>) => downAndUp('crash', whileDown),
		async close() {
			const polls = Object.fromEntries(WORKFLOWS.map((w) => [w.id, proxy.log.filter((r) => r.path === w.path).length]));
			const seconds = Object.fromEntries(Object.entries(spent).map(([part, ms]) => [part, Math.round(ms / 100) / 10]));
			// The seconds depend on the machine's load; the starts and cycles do not (the requests follow the seconds: polls).
			console.log(`[phase] ${mode} run: ${((Date.now() - began) / 1000).toFixed(1)} s (${JSON.stringify(seconds)}), n8n starts ${starts}, cycles ${cycles}, requests per workflow ${JSON.stringify(polls)}, poll every ${POLL_EVERY_S} s`);
			await deployment.close();
			await proxy.close();
		},
	};
	return run;
}

/**
 * `kill -9` of n8n once every workflow has handed the new cycle's items off
 * (they are in executions n8n holds) and before anything else happens, two
 * cycles while it is down, then every item must come out once.
 */
export async function crashAfterHandOff(run: PollRun): Promise<void> {
	await run.cycle();
	await run.waitForAll();
	await run.crash(async () => {
		await run.cycle();
		await run.cycle();
	});
	await run.waitForAll();
	await run.waitForPolls(2);
}

/**
 * `kill -9` of n8n the moment the first job-search request after a new cycle
 * has been answered: inside a poll that finds new jobs, before or while it
 * hands them off (the signal goes in the proxy's callback, within a millisecond of the answer).
 */
export async function crashAsAPollIsAnswered(run: PollRun): Promise<void> {
	let cycled = Infinity;
	const killed = new Promise<void>((resolve) => {
		run.proxy.onAnswered = (entry) => {
			if (entry.path !== JOBS.path || entry.status !== 200 || entry.started <= cycled) return;
			run.proxy.onAnswered = undefined;
			// crash() signals every process before its first await.
			resolve(run.crash());
		};
	});
	await run.cycle();
	cycled = Date.now();
	await killed;
	await run.waitForAll();
	await run.waitForPolls(2);
}

/**
 * `kill -9` of n8n at the first write to its SQLite database (its write-ahead
 * log changes) after the first job-search request following a new cycle has
 * been answered: the write is most likely the poll's hand-off, so the kill
 * lands between n8n writing the position and storing the execution, or just
 * after. What that loses is measured by the caller, after the next polls.
 */
export async function crashAtTheHandOffWrite(run: PollRun): Promise<void> {
	const wal = join(run.deployment.n8n.userFolder, '.n8n', 'database.sqlite-wal');
	let cycled = Infinity;
	const killed = new Promise<void>((resolve, reject) => {
		run.proxy.onAnswered = (entry) => {
			if (entry.path !== JOBS.path || entry.status !== 200 || entry.started <= cycled) return;
			run.proxy.onAnswered = undefined;
			try {
				const watcher = watch(wal, () => {
					watcher.close();
					resolve(run.crash());
				});
			} catch (error) {
				reject(error as Error);
			}
		};
	});
	await run.cycle();
	cycled = Date.now();
	await killed;
}

/** Logs every workflow's figures under `label` and returns, per workflow, the ids missing, repeated and unexpected. */
export async function exactlyOnceFigures(run: PollRun, label: string) {
	const out: Record<string, { missing: string[]; duplicates: string[]; unexpected: string[] }> = {};
	const counts: Record<string, object> = {};
	for (const workflow of WORKFLOWS) {
		const { missing, duplicates, unexpected, ...rest } = await run.figures(workflow);
		out[workflow.id] = { missing, duplicates, unexpected };
		counts[workflow.id] = { ...rest, missing: missing.length, duplicates: duplicates.length, unexpected: unexpected.length };
	}
	// Polls the node skipped because n8n had not saved its last hand-off's position yet (logged since the n8n processes started).
	const skipped = Object.values(run.deployment.outputs()).reduce((sum, text) => sum + text.split('has not saved the position of this trigger').length - 1, 0);
	console.log(`[measured] ${label} (${run.cycles} cycles): ${JSON.stringify(counts)}; polls skipped, hand-off not saved yet: ${skipped}`);
	return out;
}

/** The node's position as the workflow's static data holds it (n8n's REST API), undefined when there is none. */
export async function positionInStaticData(run: PollRun, workflow: PollWorkflow): Promise<unknown> {
	const response = await run.deployment.rest(`/rest/workflows/${run.deployment.n8n.workflowId(workflow.id)}`);
	const { data } = (await response.json()) as { data: { staticData?: Record<string, Record<string, unknown>> | null } };
	return data.staticData?.[`node:${NODE}`]?.pollState;
}

/** What `exactlyOnceFigures` must give when every item came out in exactly one execution. */
export const EXACTLY_ONCE = Object.fromEntries(WORKFLOWS.map((w) => [w.id, { missing: [], duplicates: [], unexpected: [] }]));
