/**
 * One real n8n for an e2e test file: the cached install (installed on first
 * use), a fresh user folder with the packed package installed as a community
 * package, and the standalone mock on a free port, with helpers to import
 * workflows and run them through n8n's CLI.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBHOOK_EVENT_TYPES } from '../../contract/events';
import { N8N_VERSION } from './config.mts';
import { installN8n } from './install.mts';
import { n8nCli, n8nCliOrThrow, packAndInstallPackage, startMock, type MockProcess } from './local-n8n.mts';
import { freePort } from './ports.mts';

export const DEMO_TOKEN = 'demo-token-job-signals';
export const CREDENTIAL = { id: 'e2eJobSignalsCred', name: 'Job Signals e2e' };

export interface RealN8n {
	userFolder: string;
	mock: MockProcess;
	/** Stops the mock and starts it again on the same port with the same flags (with --state-dir: the same state). */
	restartMock(): Promise<void>;
	importWorkflows(workflows: object[]): Promise<void>;
	/** Publishes (activates) an imported workflow, with the command of the n8n version under test. */
	publish(workflowId: string): Promise<void>;
	cli(args: string[]): Promise<string>;
	close(): Promise<void>;
}

/** n8n 2 publishes a workflow; n8n 1 has no publishing, its CLI sets the workflow active. */
function publishArgs(workflowId: string): string[] {
	return N8N_VERSION.startsWith('1.') ? ['update:workflow', `--id=${workflowId}`, '--active=true'] : ['publish:workflow', `--id=${workflowId}`];
}

/**
 * `env` goes to every n8n CLI command: a queue-mode deployment's database, say. `install` puts the package
 * into the fresh user folder (by default the packed build, as n8n's installer lays it out).
 */
export async function setUpRealN8n(
	mockFlags: string[] = [],
	env: NodeJS.ProcessEnv = {},
	install: (userFolder: string) => Promise<void> = async (userFolder) => packAndInstallPackage(userFolder),
): Promise<RealN8n> {
	await installN8n();
	const userFolder = mkdtempSync(join(tmpdir(), 'job-signals-e2e-'));
	await install(userFolder);
	const mockPort = await freePort();
	let mock = await startMock(mockPort, mockFlags);
	const credentials = [
		{ ...CREDENTIAL, type: 'jobSignalsApi', data: { apiToken: DEMO_TOKEN, baseUrl: mock.apiUrl, appUrl: mock.appUrl, accessToken: '' } },
	];
	const credentialFile = join(userFolder, 'credentials.json');
	writeFileSync(credentialFile, JSON.stringify(credentials));
	await n8nCliOrThrow(userFolder, ['import:credentials', `--input=${credentialFile}`], env);
	return {
		userFolder,
		get mock() {
			return mock;
		},
		async restartMock() {
			await mock.stop();
			mock = await startMock(mockPort, mockFlags);
		},
		async importWorkflows(workflows) {
			const dir = mkdtempSync(join(userFolder, 'workflows-'));
			workflows.forEach((workflow, i) => writeFileSync(join(dir, `${i}.json`), JSON.stringify(workflow)));
			await n8nCliOrThrow(userFolder, ['import:workflow', '--separate', `--input=${dir}`], env);
		},
		async publish(workflowId) {
			await n8nCliOrThrow(userFolder, publishArgs(workflowId), env);
		},
		cli: (args) => n8nCliOrThrow(userFolder, args, env),
		async close() {
			await mock.stop();
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
}

/**
 * `n8n execute --id … --rawOutput`, read from what it printed (the CLI may crash on exit after a good run, and
 * exits 1 after a failed one).
 */
export async function executeWorkflow(n8n: RealN8n, id: string): Promise<RunData> {
	const result = await n8nCli(n8n.userFolder, ['execute', `--id=${id}`, '--rawOutput']);
	// n8n prints the run as indented JSON: from a line "{" to the next line "}". A failed run is printed the same
	// way, between n8n's "Execution was NOT successful" lines and the error it then throws.
	const lines = result.stdout.split('\n');
	const start = lines.indexOf('{');
	const end = lines.indexOf('}', start);
	if (start < 0 || end < 0) throw new Error(`n8n execute printed no result (exit ${result.code}):\n${result.stdout}\n${result.stderr}`.slice(0, 6000));
	return JSON.parse(lines.slice(start, end + 1).join('\n')) as RunData;
}

/**
 * Several workflows in one n8n boot: `n8n execute-batch --ids … --snapshot …`, which runs each as `n8n execute` does
 * (WorkflowRunner, mode `cli`, one after another) and writes each successful run to `<id>-snapshot.json`. A boot costs
 * about 5 s of CPU, so this saves one per workflow past the first. A run that failed has no snapshot: this throws with
 * the error execute-batch reported for it (for runs meant to fail, use executeWorkflow).
 */
export async function executeWorkflows(n8n: RealN8n, ids: string[]): Promise<Record<string, RunData>> {
	// execute-batch silently skips an id without a digit (its check for "numeric IDs" is /\d+/).
	const skipped = ids.filter((id) => !/\d/.test(id));
	if (skipped.length > 0) throw new Error(`n8n execute-batch skips workflow ids without a digit: ${skipped.join(', ')}`);
	const dir = mkdtempSync(join(n8n.userFolder, 'batch-'));
	try {
		const output = join(dir, 'summary.json');
		const result = await n8nCli(n8n.userFolder, ['execute-batch', `--ids=${ids.join(',')}`, `--snapshot=${dir}`, `--output=${output}`]);
		const summary = existsSync(output) ? (JSON.parse(readFileSync(output, 'utf8')) as { executions: { workflowId: string; error?: string }[] }) : undefined;
		return Object.fromEntries(
			ids.map((id) => {
				const snapshot = join(dir, `${id}-snapshot.json`);
				if (!existsSync(snapshot)) {
					const reported = summary?.executions.find((execution) => execution.workflowId === id)?.error;
					throw new Error(`n8n execute-batch: no run of ${id} (exit ${result.code}): ${reported ?? `${result.stdout}\n${result.stderr}`.slice(0, 6000)}`);
				}
				return [id, JSON.parse(readFileSync(snapshot, 'utf8')) as RunData];
			}),
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
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
