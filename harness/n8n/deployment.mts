/**
 * A running n8n deployment for the trigger's end-to-end tests, in one of the
 * two modes users run: regular (`n8n start`, SQLite) or queue (Postgres +
 * Redis, a main process, 2 `n8n webhook` and 2 `n8n worker` processes). Each
 * process gets free ports; `restart()` really stops and starts every process
 * on the same user folder and database. Executions are counted from n8n's own
 * REST API, never from the node.
 */
import { HEADLESS_ENV } from './config.mts';
import { ensureOwner, freeN8nPorts, login, startN8n, type Rest } from './local-n8n.mts';
import type { Service } from './processes.mts';
import { queueModeEnv, startQueueServices, type QueueServices } from './queue-services.mts';
import { freePort } from './ports.mts';
import { setUpRealN8n, type RealN8n } from './real-n8n.mts';
import { startWebhookFront, type WebhookFront } from './webhook-front.mts';

export type Mode = 'regular' | 'queue';

/** The n8n a test file's workflows run in: a Deployment of its own, or the run's shared n8n (harness/n8n/shared-n8n.mts). */
export interface N8nInstance {
	n8n: RealN8n;
	/** Base URLs (`http://127.0.0.1:port/`) of the processes that serve production webhooks. */
	webhookBases: string[];
	rest(path: string, init?: RequestInit): Promise<Response>;
	/** The tail of what each n8n process printed, for failure messages. */
	logs(): string;
	close(): Promise<void>;
}

export interface Deployment extends N8nInstance {
	mode: Mode;
	/** The proxy n8n advertises as its webhook URL: what automatic registration gives the mock. */
	front: WebhookFront;
	/** Queue mode: SQL on n8n's Postgres database (QueueServices.query). */
	query?: (sql: string) => string;
	/** The main process's editor (`http://127.0.0.1:port`), whose owner account exists: what a browser opens. */
	editorUrl: string;
	/** What the running n8n processes printed (the last 200,000 characters of each), by label (main, webhook-0, worker-2 …). */
	outputs(): Record<string, string>;
	/** Stops every n8n process, runs `whileDown` (if given) while none runs, and starts them again. */
	restart(whileDown?: () => Promise<void>): Promise<void>;
	/** `kill -9` of every n8n process at once (Postgres and Redis keep running), then as `restart`. */
	crash(whileDown?: () => Promise<void>): Promise<void>;
	/**
	 * Queue mode: `kill -9` of one worker process; the other goes on alone. No new worker in its place: what the kill
	 * leaves is decided by the lock running out and the other worker's stall check, and a boot took 25–105 s.
	 */
	crashWorker(): Promise<void>;
}

interface Processes {
	services: Service[];
	webhookBases: string[];
	mainPort: number;
}

/**
 * n8n answers its readiness check before it has registered the published
 * workflows' webhooks: wait until each path answers something else than 404
 * at every webhook process. The probe's empty body is refused by the trigger
 * itself (400), so it starts no execution.
 */
export async function waitForWebhooks(bases: string[], webhookPaths: string[]): Promise<void> {
	const deadline = Date.now() + 120_000;
	for (const base of bases) {
		for (const path of webhookPaths) {
			for (;;) {
				const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
				await response.arrayBuffer();
				if (response.status !== 404) break;
				if (Date.now() > deadline) throw new Error(`${base}${path} still answers 404 after 120 s`);
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}
	}
}

/**
 * `setUp` runs once, when n8n has first started and its REST session holds the test's credential (RealN8n.connect):
 * it imports and publishes the file's workflows (RealN8n.importWorkflows, publish), live, so that no n8n CLI command
 * boots n8n beside it. `webhookPaths` (`webhook/<id>/webhook`) are the published triggers' paths, waited for at
 * every webhook process after the set-up and after every start; `processEnv` goes to every n8n process on top of the mode's own.
 */
export async function startDeployment(
	mode: Mode,
	mockFlags: string[],
	webhookPaths: string[],
	setUp: (n8n: RealN8n) => Promise<void>,
	processEnv: NodeJS.ProcessEnv = {},
): Promise<Deployment> {
	// Postgres and Redis start while the package is installed and the mock starts; if one fails, the others are stopped.
	const settled = await Promise.allSettled([
		mode === 'queue' ? startQueueServices({ postgres: await freePort(), redis: await freePort() }) : undefined,
		setUpRealN8n(mockFlags),
		startWebhookFront(),
	] as const);
	const [queue, n8n, front] = settled.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as [QueueServices | undefined, RealN8n | undefined, WebhookFront | undefined];
	const failed = settled.find((result) => result.status === 'rejected');
	if (failed || !n8n || !front) {
		await Promise.all([queue?.stop(), n8n?.close(), front?.close()]);
		throw failed?.reason;
	}
	const env = { ...HEADLESS_ENV, ...(queue ? queueModeEnv(queue) : {}), ...processEnv };
	const webhookEnv = { ...env, WEBHOOK_URL: front.url };

	/**
	 * Queue mode: the main process first, then the others at once: two `n8n webhook` processes when the deployment
	 * serves webhooks (`webhookPaths`; with none, each would be a boot for nothing) and two `n8n worker`. All at once
	 * failed the set-up on a quiet machine (CI, load under 4). If one of the others fails, the rest and the main are stopped.
	 */
	const commands = webhookPaths.length > 0 ? (['webhook', 'webhook', 'worker', 'worker'] as const) : (['worker', 'worker'] as const);
	const start = async (): Promise<Processes> => {
		const mainPorts = await freeN8nPorts();
		const main = await startN8n(n8n.userFolder, mainPorts, { env: webhookEnv, label: 'main' });
		if (!queue) return { services: [main], webhookBases: [`http://127.0.0.1:${mainPorts.http}/`], mainPort: mainPorts.http };
		const bases: string[] = [];
		const settled = await Promise.allSettled(
			commands.map(async (command, i) => {
				const ports = await freeN8nPorts();
				bases[i] = `http://127.0.0.1:${ports.http}/`;
				return startN8n(n8n.userFolder, ports, { env: webhookEnv, command, label: `${command}-${i}` });
			}),
		);
		const services = [main, ...settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))];
		const failed = settled.find((result) => result.status === 'rejected');
		if (failed) {
			await Promise.all(services.map((service) => service.stop(30_000)));
			throw failed.reason;
		}
		return { services, webhookBases: bases.filter((_, i) => commands[i] === 'webhook'), mainPort: mainPorts.http };
	};

	let processes: Processes | undefined;
	let rest: Rest;
	const up = async (first = false) => {
		processes = await start();
		front.setTargets(processes.webhookBases);
		await ensureOwner(processes.mainPort);
		rest = await login(processes.mainPort);
		if (first) {
			await n8n.connect(() => rest);
			await setUp(n8n);
		}
		await waitForWebhooks(processes.webhookBases, webhookPaths);
	};
	const down = async () => {
		// Workers and webhook processes first, so no execution is left to a main that is already gone.
		await Promise.all(processes?.services.slice(1).map((s) => s.stop(30_000)) ?? []);
		await processes?.services[0]?.stop(30_000);
	};
	try {
		await up(true);
	} catch (error) {
		await down();
		await front.close();
		await n8n.close();
		await queue?.stop();
		throw error;
	}
	return {
		mode,
		n8n,
		front,
		query: queue?.query,
		get webhookBases() {
			return processes!.webhookBases;
		},
		get editorUrl() {
			return `http://127.0.0.1:${processes!.mainPort}`;
		},
		rest: (path, init) => rest(path, init),
		logs: () => (processes?.services ?? []).map((s) => `--- ${s.label}\n${s.output().slice(-6000)}`).join('\n'),
		outputs: () => Object.fromEntries((processes?.services ?? []).map((s) => [s.label, s.output()])),
		async restart(whileDown) {
			await down();
			await whileDown?.();
			await up();
		},
		async crash(whileDown) {
			await Promise.all(processes?.services.map((s) => s.kill()) ?? []);
			await whileDown?.();
			await up();
		},
		async crashWorker() {
			const worker = processes?.services.find((s) => s.label.startsWith('worker') && s.child.exitCode === null && s.child.signalCode === null);
			if (!worker) throw new Error('crashWorker: this deployment has no running worker process');
			await worker.kill();
		},
		async close() {
			// Nothing of the processes is kept: `kill -9` spares the graceful stop (8–15 s for queue mode's five).
			await Promise.all(processes?.services.map((s) => s.kill()) ?? []);
			await front.close();
			await n8n.close();
			await queue?.stop();
		},
	};
}

export interface ExecutionSummary {
	id: string;
	status: string;
	/** The serialized run data, to find which event ids it holds. */
	data: string;
}

const EXECUTION_STATUSES = ['canceled', 'crashed', 'error', 'new', 'running', 'success', 'unknown', 'waiting'];

/**
 * Every execution of the workflow (imported under `workflowId`), id and status only. n8n's REST API pages by 100 at most: n8n 2.41 on by the
 * opaque cursor each page names (`nextCursor`, null on the last page), earlier versions down by the lowest id read (`lastId`).
 */
export async function listExecutions(deployment: N8nInstance, workflowId: string): Promise<{ id: string; status: string }[]> {
	const all: { id: string; status: string }[] = [];
	// With a status filter n8n takes its range query, which honours the page's position.
	const filter = encodeURIComponent(JSON.stringify({ workflowId: deployment.n8n.workflowId(workflowId), status: EXECUTION_STATUSES }));
	for (let position = ''; ; ) {
		const response = await deployment.rest(`/rest/executions?filter=${filter}&limit=100${position}`);
		if (!response.ok) throw new Error(`GET /rest/executions: ${response.status} ${await response.text()}`);
		const { data } = (await response.json()) as { data: { results: { id: string; status: string }[]; nextCursor?: string | null } };
		all.push(...data.results);
		if ('nextCursor' in data) {
			if (!data.nextCursor) return all;
			position = `&cursor=${encodeURIComponent(data.nextCursor)}`;
			continue;
		}
		if (data.results.length < 100) return all;
		position = `&lastId=${data.results.map((e) => e.id).sort((a, b) => Number(a) - Number(b))[0]}`;
	}
}

/**
 * Every execution of the workflow, once none is running any more, with its run data;
 * with `afterId`, only the executions after that one (ids grow) are read in full. With `unfinishedAfterMs`, after that
 * long the executions as they are, unfinished ones included, instead of an error at 180 s. With `unfinishedUpTo`, an
 * unfinished execution up to that id is not waited for (a process killed under it, which will never finish it).
 */
export async function executionsOf(
	deployment: N8nInstance,
	workflowId: string,
	afterId?: string,
	options: { unfinishedAfterMs?: number; unfinishedUpTo?: string } = {},
): Promise<ExecutionSummary[]> {
	const started = Date.now();
	const deadline = started + 180_000;
	for (;;) {
		const all = await listExecutions(deployment, workflowId);
		const executions = afterId === undefined ? all : all.filter((e) => Number(e.id) > Number(afterId));
		const unfinished = all.filter((e) => ['new', 'running', 'waiting'].includes(e.status) && (options.unfinishedUpTo === undefined || Number(e.id) > Number(options.unfinishedUpTo)));
		if (new Set(all.map((e) => e.id)).size !== all.length) throw new Error('the executions list repeated an execution');
		const givenUp = options.unfinishedAfterMs !== undefined && Date.now() - started > options.unfinishedAfterMs;
		if (unfinished.length === 0 || givenUp) {
			const summaries: ExecutionSummary[] = [];
			// A few at a time: n8n serves each execution's data from its database.
			for (let i = 0; i < executions.length; i += 10) {
				summaries.push(
					...(await Promise.all(
						executions.slice(i, i + 10).map(async (e) => {
							const detail = (await (await deployment.rest(`/rest/executions/${e.id}`)).json()) as { data: { data: string } };
							return { id: e.id, status: e.status, data: detail.data.data };
						}),
					)),
				);
			}
			return summaries;
		}
		if (Date.now() > deadline) throw new Error(`executions still unfinished after 180 s: ${JSON.stringify(unfinished)}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** How many executions hold each id (0 for an id none holds). */
export function executionsPerId(executions: ExecutionSummary[], ids: string[]): Record<string, number> {
	return Object.fromEntries(ids.map((id) => [id, executions.filter((e) => e.data.includes(`"${id}"`)).length]));
}
