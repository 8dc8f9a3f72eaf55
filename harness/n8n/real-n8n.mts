/**
 * One real n8n for an e2e test file: the cached install (installed on first
 * use), a fresh user folder with the packed package installed as a community
 * package, and the standalone mock on a free port; or the file's own mock in an
 * n8n other files use too (joinRealN8n). Once an n8n runs on the folder
 * (`connect`), its credentials and workflows are imported, published and run
 * through n8n's REST API, as the editor does: a CLI command would boot all of n8n
 * again (about 5 s of CPU each).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'flatted';
import { WEBHOOK_EVENT_TYPES } from '../../contract/events';
import { N8N_VERSION } from './config.mts';
import { installN8n } from './install.mts';
import { packAndInstallPackage, startMock, type MockProcess, type Rest } from './local-n8n.mts';
import { freePort } from './ports.mts';

export const DEMO_TOKEN = 'demo-token-job-signals';
/** The test's credential as its workflows name it; n8n gives it an id of its own (RealN8n.credentialId). */
export const CREDENTIAL = { id: 'e2eJobSignalsCred', name: 'Job Signals e2e' };

/** A credential as the tests write it: `id` is the one their workflows name. */
export interface CredentialImport {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface RealN8n {
	userFolder: string;
	mock: MockProcess;
	/** Stops the mock and starts it again on the same port with the same flags (with --state-dir: the same state). */
	restartMock(): Promise<void>;
	/**
	 * The REST session of the n8n now running on the user folder (a getter: a restart logs in again); imports the
	 * test's credential (CREDENTIAL, on the mock) through it. The calls below go through it.
	 */
	connect(rest: () => Rest): Promise<void>;
	/** The running n8n's REST session. */
	rest: Rest;
	importCredentials(credentials: CredentialImport[]): Promise<void>;
	/** Creates the workflows, their nodes' credentials pointed at the ids n8n gave the imported ones. */
	importWorkflows(workflows: object[]): Promise<void>;
	/** Publishes (n8n 2) or activates (n8n 1, which has no publishing) an imported workflow, live. */
	publish(workflowId: string): Promise<void>;
	/** The id n8n gave the workflow imported under `id` (n8n 2 keeps it; n8n 1 gives its own). */
	workflowId(id: string): string;
	/** The id n8n gave the credential imported under `id`. */
	credentialId(id: string): string;
	/** Stops the mock; then removes the user folder, or in a joined n8n what this file created in it (joinRealN8n). */
	close(): Promise<void>;
}

/**
 * n8n's answer to a REST call, its `data`; an error naming the call and n8n's answer when it is not a 2xx. A GET whose
 * connection fails (n8n 1.123.81 reset one now and then at load 20) is sent again, up to 5 times a second apart.
 */
async function restData<T>(rest: Rest, method: string, path: string, body?: unknown): Promise<T> {
	const send = () => rest(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
	let response: Response | undefined;
	for (let attempt = 1; !response; attempt++) {
		try {
			response = await send();
		} catch (error) {
			// fetch's own failure (TypeError), not n8n's answer; only a GET is safe to send twice.
			if (!(error instanceof TypeError) || method !== 'GET' || attempt === 5) throw error;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}
	const text = await response.text();
	if (!response.ok) throw new Error(`n8n ${method} ${path}: ${response.status} ${text.slice(0, 3000)}`);
	return (JSON.parse(text) as { data: T }).data;
}

interface WorkflowJson {
	id: string;
	nodes: { name: string; type: string; credentials?: Record<string, { id: string; name: string }> }[];
}

/** `install` puts the package into the fresh user folder (by default the packed build, as n8n's installer lays it out). */
export async function setUpRealN8n(
	mockFlags: string[] = [],
	install: (userFolder: string) => Promise<void> = async (userFolder) => packAndInstallPackage(userFolder),
): Promise<RealN8n> {
	await installN8n();
	const userFolder = mkdtempSync(join(tmpdir(), 'job-signals-e2e-'));
	await install(userFolder);
	return await realN8nOn(userFolder, mockFlags, 'own');
}

/**
 * The file's own mock, credential and workflows in an n8n that other files use at the same time (harness/n8n/shared-n8n.mts),
 * on its user folder: `close` archives each workflow it created (which unpublishes it) and deletes it, with its
 * executions, and deletes its credentials; the folder stays.
 */
export async function joinRealN8n(userFolder: string, mockFlags: string[]): Promise<RealN8n> {
	return await realN8nOn(userFolder, mockFlags, 'joined');
}

async function realN8nOn(userFolder: string, mockFlags: string[], folder: 'own' | 'joined'): Promise<RealN8n> {
	const mockPort = await freePort();
	let mock = await startMock(mockPort, mockFlags);
	let session: (() => Rest) | undefined;
	const rest: Rest = (path, init) => {
		if (!session) throw new Error(`n8n REST ${path}: no n8n connected yet (RealN8n.connect after it started)`);
		return session()(path, init);
	};
	// The one place where the tests' fixed ids meet the ids n8n gave.
	const credentialIds = new Map<string, string>();
	const workflows = new Map<string, { id: string; versionId: string }>();
	const known = <T,>(map: Map<string, T>, what: string, id: string): T => {
		const value = map.get(id);
		if (value === undefined) throw new Error(`${what} ${id} was not imported into this n8n (imported: ${[...map.keys()].join(', ') || 'none'})`);
		return value;
	};
	const n8n: RealN8n = {
		userFolder,
		get mock() {
			return mock;
		},
		async restartMock() {
			await mock.stop();
			mock = await startMock(mockPort, mockFlags);
		},
		async connect(getRest) {
			session = getRest;
			await n8n.importCredentials([
				{ ...CREDENTIAL, type: 'jobSignalsApi', data: { apiToken: DEMO_TOKEN, baseUrl: mock.apiUrl, appUrl: mock.appUrl, accessToken: '' } },
			]);
		},
		rest,
		async importCredentials(credentials) {
			for (const credential of credentials) {
				if (credentialIds.has(credential.id)) throw new Error(`credential ${credential.id} is imported already`);
				const created = await restData<{ id: string }>(rest, 'POST', '/rest/credentials', { name: credential.name, type: credential.type, data: credential.data });
				credentialIds.set(credential.id, created.id);
			}
		},
		async importWorkflows(list) {
			for (const workflow of list as WorkflowJson[]) {
				const nodes = workflow.nodes.map((node) =>
					node.credentials
						? {
								...node,
								credentials: Object.fromEntries(
									Object.entries(node.credentials).map(([type, reference]) => [type, { ...reference, id: known(credentialIds, `credential of node "${node.name}" in workflow ${workflow.id}:`, reference.id) }]),
								),
							}
						: node,
				);
				const created = await restData<{ id: string; versionId: string }>(rest, 'POST', '/rest/workflows', { ...workflow, nodes });
				workflows.set(workflow.id, { id: created.id, versionId: created.versionId });
			}
		},
		async publish(workflowId) {
			const { id, versionId } = known(workflows, 'workflow', workflowId);
			// n8n 2: publishes this version; n8n 1.123: sets the workflow active (the same route, versionId required).
			await restData(rest, 'POST', `/rest/workflows/${id}/activate`, { versionId });
			const settled = await publicationSettled(rest, id);
			// A trigger that failed to activate fails the set-up. Queue mode records no trigger statuses: "not_published".
			if (settled?.status === 'failed' || settled?.status === 'partial') {
				throw new Error(`n8n did not publish ${workflowId}: ${settled.status} ${JSON.stringify(settled.triggers)}`);
			}
		},
		workflowId: (id) => known(workflows, 'workflow', id).id,
		credentialId: (id) => known(credentialIds, 'credential', id),
		async close() {
			try {
				if (folder === 'joined') {
					for (const { id } of workflows.values()) {
						await restData(rest, 'POST', `/rest/workflows/${id}/archive`, {});
						await publicationSettled(rest, id);
						await restData(rest, 'DELETE', `/rest/workflows/${id}`);
					}
					for (const id of credentialIds.values()) await restData(rest, 'DELETE', `/rest/credentials/${id}`);
				}
			} finally {
				await mock.stop();
				if (folder === 'own') rmSync(userFolder, { recursive: true, force: true });
			}
		},
	};
	return n8n;
}

interface PublicationStatus {
	status: 'in_progress' | 'published' | 'partial' | 'failed' | 'not_published';
	triggers: { nodeId: string; status: string; errorMessage: string | null }[];
}

/**
 * n8n 2 publishes and unpublishes through its publication outbox: the REST call returns before the triggers are
 * activated (a webhook path can answer before the trigger's registration with the service is made) or removed. This
 * waits until nothing is in flight, up to 120 s, and returns the status; undefined where n8n has no outbox (1.123, or
 * the service turned off), whose call returns once activation is done.
 */
async function publicationSettled(rest: Rest, id: string): Promise<PublicationStatus | undefined> {
	const deadline = Date.now() + 120_000;
	for (;;) {
		const response = await rest(`/rest/workflows/${id}/publication-status`);
		const text = await response.text();
		if (response.status === 404) return undefined;
		if (!response.ok) throw new Error(`n8n GET /rest/workflows/${id}/publication-status: ${response.status} ${text.slice(0, 3000)}`);
		const { data } = JSON.parse(text) as { data: PublicationStatus };
		if (data.status !== 'in_progress') return data;
		if (Date.now() > deadline) throw new Error(`the publication of workflow ${id} is still in progress after 120 s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

const UNFINISHED = ['new', 'running', 'waiting'];

/**
 * Runs an imported workflow from its Manual Trigger, as the editor's "Execute workflow" does (`POST
 * /rest/workflows/:id/run`: n8n 2 runs the stored workflow, n8n 1 the one sent, here the stored one read first), and
 * returns the run once n8n has finished it, failed runs too (read from `GET /rest/executions/:id`).
 */
export async function executeWorkflow(n8n: RealN8n, id: string): Promise<RunData> {
	const workflowId = n8n.workflowId(id);
	const stored = await restData<WorkflowJson>(n8n.rest, 'GET', `/rest/workflows/${workflowId}`);
	const trigger = stored.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`workflow ${id} has no Manual Trigger to run it from`);
	const body = N8N_VERSION.startsWith('1.') ? { workflowData: stored, triggerToStartFrom: { name: trigger.name } } : { triggerToStartFrom: { name: trigger.name } };
	const started = await restData<{ executionId?: string }>(n8n.rest, 'POST', `/rest/workflows/${workflowId}/run`, body);
	if (!started.executionId) throw new Error(`n8n started no execution of ${id}: ${JSON.stringify(started)}`);
	const deadline = Date.now() + 180_000;
	for (;;) {
		const execution = await restData<{ status: string; data: string }>(n8n.rest, 'GET', `/rest/executions/${started.executionId}`);
		if (!UNFINISHED.includes(execution.status)) return { data: parse(execution.data) as RunData['data'] };
		if (Date.now() > deadline) throw new Error(`execution ${started.executionId} of ${id} still ${execution.status} after 180 s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** Several workflows run side by side (executeWorkflow each); throws naming the first one whose run failed. */
export async function executeWorkflows(n8n: RealN8n, ids: string[]): Promise<Record<string, RunData>> {
	const runs = await Promise.all(ids.map(async (id) => [id, await executeWorkflow(n8n, id)] as const));
	for (const [id, run] of runs) {
		const failure = run.data.resultData.error?.message;
		if (failure) throw new Error(`the run of ${id} failed: ${failure}`);
	}
	return Object.fromEntries(runs);
}

export interface RunData {
	data: { resultData: { runData: Record<string, { data?: { main: { json: Record<string, unknown> }[][] }; error?: { message: string } }[]>; error?: { message: string } } };
}

/** Every event type the service sends (contract/events.ts). */
export const ALL_EVENTS: string[] = [...WEBHOOK_EVENT_TYPES];

/** A published Job Signals Trigger of the tests: its workflow id, its webhook id and how it registers. */
export interface TriggerWorkflow {
	id: string;
	webhookId: string;
	registration: 'manual' | 'automatic';
	/** Default 1.1, the version a node added now gets. */
	typeVersion?: number;
	/** Beside registration and events (every event type). */
	parameters?: Record<string, unknown>;
}

/** The Job Signals Trigger node of a test workflow, on every event type and the test's credential. */
export function triggerNode(trigger: TriggerWorkflow) {
	return {
		id: `${trigger.id}-trigger`,
		name: 'Job Signals Trigger',
		type: 'n8n-nodes-job-signals.jobSignalsTrigger',
		typeVersion: trigger.typeVersion ?? 1.1,
		position: [0, 0],
		webhookId: trigger.webhookId,
		parameters: { registration: trigger.registration, events: ALL_EVENTS, ...trigger.parameters },
		credentials: { jobSignalsApi: CREDENTIAL },
	};
}

/** A workflow of the trigger alone. */
export function triggerWorkflow(trigger: TriggerWorkflow) {
	return { id: trigger.id, name: trigger.id, active: false, settings: { executionOrder: 'v1' }, nodes: [triggerNode(trigger)], connections: {}, pinData: {} };
}

/** A valid job_created delivery with this webhook_event_id. */
export function jobCreatedEnvelope(id: string) {
	return {
		webhook_event_id: id,
		webhook_id: 'whk_e2e',
		organization_id: 'org_e2e',
		event_type: 'job_created',
		event_data: { job_id: `job-${id}`, title: 'E2E job' },
		created_at: 1_760_000_000,
		updated_at: 1_760_000_000,
	};
}

/** A workflow of a Manual Trigger and one Job Signals node. */
export function oneNodeWorkflow(id: string, parameters: Record<string, unknown>) {
	return {
		id,
		name: `e2e ${id}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: `${id}-t`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: `${id}-n`,
				name: 'Job Signals',
				type: 'n8n-nodes-job-signals.jobSignals',
				typeVersion: 1,
				position: [200, 0],
				parameters,
				credentials: { jobSignalsApi: CREDENTIAL },
			},
		],
		connections: { Start: { main: [[{ node: 'Job Signals', type: 'main', index: 0 }]] } },
		pinData: {},
	};
}

/** The Job Signals node's output items in a run. */
export function nodeOutput(run: RunData, node = 'Job Signals'): Record<string, unknown>[] {
	const task = run.data.resultData.runData[node]?.[0];
	if (!task?.data) throw new Error(`${node} did not run: ${task?.error?.message ?? run.data.resultData.error?.message ?? 'no task data'}`);
	return task.data.main[0].map((item) => item.json);
}
