/**
 * The poll trigger in a real `n8n start` (regular mode, SQLite, n8n's default
 * in-memory poll scheduler). Three published workflows poll the mock every
 * 10 s: New Signal of each group and New Job of a job search over all the
 * account's jobs. The mock's processing cycles make the events; every created
 * job and new signal of the account must come out in exactly one execution,
 * counted from n8n's REST API, across an n8n restart and the mock's fault
 * rules (429, a 500 mid-walk, a cut-off page, an answer slower than the poll
 * interval). n8n 2.40 refuses a cron that fires more than once a minute
 * ("The polling interval is too short"), so each workflow has six Poll Times,
 * each once a minute on its own second: a poll every 10 s.
 *
 * The node's requests go through a small counting proxy in this process (the
 * credential's base URL), so the test knows when polls happened: it waits for
 * conditions (items appearing, at least two more polls), never for a fixed time.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'flatted';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../../harness/n8n/real-n8n.ts';
import { executionsOf, startDeployment, type Deployment } from '../../harness/n8n/deployment.ts';

const POLL_TYPE = 'n8n-nodes-job-signals.jobSignalsPollTrigger';
const NODE = 'Job Signals Poll Trigger';
const CREDENTIAL = { id: 'e2ePollCred', name: 'Job Signals poll e2e' };

interface PollWorkflow {
	id: string;
	/** The service path its polls read (what the proxy log and the fault rules match). */
	path: string;
	/** The field that names an item. */
	idField: 'signal_id' | 'job_id';
	parameters: Record<string, unknown>;
}

const WORKFLOWS: PollWorkflow[] = [
	{ id: 'e2ePollProblems', path: '/v2/signals/problems', idField: 'signal_id', parameters: { event: 'newSignal', group: 'problems', category: '', directOnly: false, activeOnly: false } },
	{ id: 'e2ePollChanges', path: '/v2/signals/changes', idField: 'signal_id', parameters: { event: 'newSignal', group: 'changes', category: '', directOnly: false, activeOnly: false } },
	{ id: 'e2ePollJobs', path: '/v2/jobs', idField: 'job_id', parameters: { event: 'newJob', jobsFrom: 'search', search: '', locations: '', categories: [] } },
];
const [PROBLEMS, CHANGES, JOBS] = WORKFLOWS;

function pollWorkflow(workflow: PollWorkflow, index: number) {
	// Six poll times a minute, each workflow on its own seconds (3 s apart).
	const pollTimes = { item: [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: `${second + 3 * index} * * * * *` })) };
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
				parameters: { pollTimes, ...workflow.parameters },
				credentials: { jobSignalsApi: CREDENTIAL },
			},
		],
		connections: {},
		pinData: {},
	};
}

interface Logged {
	path: string;
	query: URLSearchParams;
	/** 0: the connection failed or was dropped. */
	status: number;
	started: number;
	ended?: number;
}

/** A pass-through proxy to the mock that logs every request the node sends. */
async function startCountingProxy(target: string): Promise<{ url: string; log: Logged[]; close(): Promise<void> }> {
	const log: Logged[] = [];
	const upstream = new URL(target);
	const server: Server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', target);
		const entry: Logged = { path: url.pathname, query: url.searchParams, status: 0, started: Date.now() };
		log.push(entry);
		const forward = request(
			{ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
			(answer) => {
				entry.status = answer.statusCode ?? 0;
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
				answer.on('end', () => {
					entry.ended = Date.now();
				});
			},
		);
		forward.on('error', () => {
			entry.ended = Date.now();
			res.destroy();
		});
		req.pipe(forward);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		log,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

interface CycleEvent {
	account_id: string;
	event_type: string;
	event_data: { job_id?: string; signal_id?: string; info?: { group?: string } };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 150_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await pause(1000);
	}
}

interface Observed {
	executions: number;
	/** Ids in every successful execution's output, one entry per item. */
	emitted: string[];
	/** Failed executions: their error messages. */
	errors: string[];
}

/** What n8n's REST API holds for a workflow: its executions, the items they output, the failed ones. */
async function observe(deployment: Deployment, workflow: PollWorkflow): Promise<Observed> {
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

describe('the poll trigger in a real n8n (regular mode)', () => {
	let deployment: Deployment;
	let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
	/** The demo account's events, each with when its cycle ran. */
	const events: (CycleEvent & { cycle: number; at: number; done: number })[] = [];
	let cycles = 0;

	async function cycle(): Promise<void> {
		const at = Date.now();
		const response = await fetch(`${deployment.n8n.mock.appUrl}/__mock/process`, { method: 'POST' });
		const { events: all } = (await response.json()) as { events: CycleEvent[] };
		cycles++;
		const done = Date.now();
		events.push(...all.filter((e) => e.account_id === 'acc_demo').map((e) => ({ ...e, cycle: cycles, at, done })));
	}

	const setFaults = async (faults: object[]) => {
		const response = await fetch(`${deployment.n8n.mock.appUrl}/__mock/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults }) });
		expect(response.status).toBe(200);
	};

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
	async function waitForAll(): Promise<void> {
		for (const workflow of WORKFLOWS) {
			await waitFor(`every new item of ${workflow.id} in an execution`, async () => {
				const emitted = new Set((await observe(deployment, workflow)).emitted);
				const excused = workflow === JOBS ? unseeable() : new Set<string>();
				return expectedIds(workflow).every((id) => emitted.has(id) || excused.has(id));
			});
		}
	}

	/** Successful requests of each workflow's list that started after `since`. */
	const pollsSince = (workflow: PollWorkflow, since: number) => proxy.log.filter((r) => r.path === workflow.path && r.status === 200 && r.started > since && r.ended !== undefined).length;

	async function waitForPolls(count: number): Promise<void> {
		const since = Date.now();
		for (const workflow of WORKFLOWS) await waitFor(`${count} more polls of ${workflow.id}`, async () => pollsSince(workflow, since) >= count);
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

	beforeAll(async () => {
		deployment = await startDeployment('regular', ['--jobs', '2000', '--signals', '2000', '--sources', '60', '--rate-limit', '0'], [], async (n8n) => {
			proxy = await startCountingProxy(n8n.mock.appUrl);
			const dir = mkdtempSync(join(n8n.userFolder, 'poll-e2e-'));
			const credentialFile = join(dir, 'credential.json');
			writeFileSync(
				credentialFile,
				JSON.stringify([{ ...CREDENTIAL, type: 'jobSignalsApi', data: { apiToken: DEMO_TOKEN, baseUrl: `${proxy.url}/v2`, appUrl: n8n.mock.appUrl, accessToken: '' } }]),
			);
			await n8n.cli(['import:credentials', `--input=${credentialFile}`]);
			await n8n.importWorkflows(WORKFLOWS.map(pollWorkflow));
			for (const workflow of WORKFLOWS) await n8n.publish(workflow.id);
		});
	});

	afterAll(async () => {
		await deployment?.close();
		await proxy?.close();
	});

	it('n8n lists the poll trigger among its node types, next to the webhook trigger', async () => {
		const response = await deployment.rest('/types/nodes.json');
		expect(response.status).toBe(200);
		const types = (await response.json()) as { name: string; displayName: string; polling?: boolean; group: string[] }[];
		const ours = types.filter((t) => t.name.startsWith('n8n-nodes-job-signals.'));
		// n8n adds jobSignalsTool itself (the action node is usable as a tool); the triggers are not.
		expect(ours.map((t) => t.name).sort()).toEqual(
			['jobSignals', 'jobSignalsPollTrigger', 'jobSignalsTool', 'jobSignalsTrigger'].map((name) => `n8n-nodes-job-signals.${name}`),
		);
		const poll = ours.find((t) => t.name === POLL_TYPE)!;
		expect(poll).toMatchObject({ displayName: 'Job Signals Poll Trigger', polling: true, group: ['trigger'] });
		// n8n adds Poll Times to a polling node's parameters.
		expect(JSON.stringify(poll)).toContain('"pollTimes"');
	});

	it('activation records the position and emits nothing old; idle polls start no execution', async () => {
		await waitForPolls(2);
		for (const workflow of WORKFLOWS) expect(await observe(deployment, workflow)).toEqual({ executions: 0, emitted: [], errors: [] });
	});

	it('every new signal and created job comes out in exactly one execution, across cycles that pile up and an n8n restart between two polls', async () => {
		await cycle();
		await waitForAll();
		await cycle();
		await cycle();
		await waitForAll();
		// One cycle just before the restart (polled before it or after it), two while n8n is down.
		await cycle();
		await deployment.restart(async () => {
			await cycle();
			await cycle();
		});
		await waitForAll();
		await cycle();
		await waitForAll();
		await waitForPolls(2);
		for (const workflow of WORKFLOWS) {
			const result = await figures(workflow);
			console.log(`[measured] poll e2e, ${workflow.id} after ${cycles} cycles and a restart: ${JSON.stringify({ ...result, missing: result.missing.length, duplicates: result.duplicates.length, unexpected: result.unexpected.length })}`);
			expect(result.events).toBeGreaterThan(0);
			expect({ missing: result.missing, duplicates: result.duplicates, unexpected: result.unexpected, errors: result.errors }).toEqual({ missing: [], duplicates: [], unexpected: [], errors: [] });
		}
	});

	it('429s during a poll are waited out: the items come once, no failed execution', async () => {
		await setFaults([{ path: PROBLEMS.path, status: 429, times: 2 }]);
		await cycle();
		await waitForAll();
		const problems = proxy.log.filter((r) => r.path === PROBLEMS.path);
		expect(problems.filter((r) => r.status === 429)).toHaveLength(2);
		await setFaults([]);
		const result = await figures(PROBLEMS);
		expect({ missing: result.missing, duplicates: result.duplicates, errors: result.errors }).toEqual({ missing: [], duplicates: [], errors: [] });
	});

	it('a cut-off page fails the poll visibly (a failed execution); the next poll emits its items once', async () => {
		const before = (await observe(deployment, CHANGES)).errors.length;
		await setFaults([{ path: CHANGES.path, body: 'truncated-json', times: 1 }]);
		await cycle();
		const errors = await waitFor('a failed execution of the cut-off page', async () => {
			const { errors } = await observe(deployment, CHANGES);
			return errors.length > before && errors;
		});
		console.log(`[measured] poll e2e, cut-off page: ${errors.slice(before).join(' | ')}`);
		expect(errors.slice(before)).toHaveLength(1);
		await waitForAll();
		await setFaults([]);
		const result = await figures(CHANGES);
		expect({ missing: result.missing, duplicates: result.duplicates }).toEqual({ missing: [], duplicates: [] });
	});

	it('a 500 on page 2 of a walk, past the retries, fails the poll visibly; the next poll emits every item once', async () => {
		const before = (await observe(deployment, JOBS)).errors.length;
		// Right after a poll of the job search, so the next poll finds all of the cycles' jobs at once (more than a page).
		const since = Date.now();
		await waitFor('a poll of the job search', async () => pollsSince(JOBS, since) >= 1);
		await setFaults([{ path: JOBS.path, method: 'GET', status: 500, after: 1, times: 4 }]);
		const from = proxy.log.length;
		for (let i = 0; i < 22; i++) await cycle();
		const errors = await waitFor('a failed execution of the job search', async () => {
			const { errors } = await observe(deployment, JOBS);
			return errors.length > before && errors;
		});
		console.log(`[measured] poll e2e, 500 mid-walk: ${errors.slice(before).join(' | ')}`);
		// Page 1 answered, then page 2 four times 500 (the first try and 3 retries).
		const walk = proxy.log.slice(from).filter((r) => r.path === JOBS.path).slice(0, 5).map((r) => `${r.query.get('offset')}:${r.status}`);
		expect(walk).toEqual(['0:200', '100:500', '100:500', '100:500', '100:500']);
		await waitForAll();
		await setFaults([]);
		const result = await figures(JOBS);
		expect({ missing: result.missing, duplicates: result.duplicates }).toEqual({ missing: [], duplicates: [] });
	});

	it('an answer slower than the poll interval: the polls that start meanwhile do not emit its items again', async () => {
		// The next problems request waits 15 s before the mock answers it (at least one more poll time passes meanwhile).
		await setFaults([{ path: PROBLEMS.path, latency_ms: 15_000, times: 1 }]);
		const from = proxy.log.length;
		await waitFor('the slow request in flight', async () => proxy.log.slice(from).some((r) => r.path === PROBLEMS.path && r.ended === undefined));
		await cycle();
		await waitForAll();
		await waitFor('the slow request answered', async () => proxy.log.slice(from).filter((r) => r.path === PROBLEMS.path).every((r) => r.ended !== undefined));
		await setFaults([]);
		// The overlap really happened: poll times came while the slow request was in flight, and the node skipped them (its log line in n8n's output).
		const slow = proxy.log.slice(from).find((r) => r.path === PROBLEMS.path)!;
		expect(slow.ended! - slow.started).toBeGreaterThanOrEqual(15_000);
		expect(deployment.logs()).toContain('the previous poll of this trigger is still running; this poll time is skipped');
		await waitForPolls(2);
		const result = await figures(PROBLEMS);
		expect({ missing: result.missing, duplicates: result.duplicates, errors: result.errors }).toEqual({ missing: [], duplicates: [], errors: [] });
	});

	it('overall: every event in exactly one execution, failed executions only where a fault was injected', async () => {
		// The case before ended with two more polls.
		const all: Record<string, unknown> = {};
		for (const workflow of WORKFLOWS) {
			const result = await figures(workflow);
			all[workflow.id] = { ...result, missing: result.missing.length, duplicates: result.duplicates.length, unexpected: result.unexpected.length };
			expect({ missing: result.missing, duplicates: result.duplicates, unexpected: result.unexpected }).toEqual({ missing: [], duplicates: [], unexpected: [] });
		}
		console.log(`[measured] poll e2e, end of file (${cycles} cycles): ${JSON.stringify(all)}`);
		expect([PROBLEMS, CHANGES, JOBS].map((w) => (all[w.id] as { failed: number }).failed)).toEqual([0, 1, 1]);
	});
});
