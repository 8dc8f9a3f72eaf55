/**
 * The package installed, updated and uninstalled as self-hosted users do it by hand (and as queue-mode workers
 * need it): `npm install n8n-nodes-job-signals` in a fresh `~/.n8n/nodes`, from a real npm registry (verdaccio,
 * harness/n8n/local-registry.mts) to which both packages were published by the release itself: publish.yml's
 * steps (n8n-node release for the nodes; harness/n8n/release-rehearsal.mts says what differs from GitHub). After each step
 * n8n is started again and one published workflow per node runs against the mock over real HTTP: the action
 * node behind a Webhook node, the webhook trigger, the poll trigger. No hook records the package in n8n's
 * database (EXTERNAL_HOOK_FILES is emptied): n8n sees only what npm put into the nodes folder, as a user's does.
 * Also: n8n's own installer (Settings → Community nodes → Install, its REST call) with the local registry, and
 * the mock installed from the registry and started with npx in an empty folder.
 */
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_NAME, REPO_ROOT } from '../../harness/n8n/config.mts';
import { ensureOwner, freeN8nPorts, login, startN8n, type Rest } from '../../harness/n8n/local-n8n.mts';
import { MOCK_PACKAGE_NAME, packForRegistry, startLocalRegistry, type LocalRegistry } from '../../harness/n8n/local-registry.mts';
import { rehearseRelease, type Rehearsal } from '../../harness/n8n/release-rehearsal.mts';
import { freePort } from '../../harness/n8n/ports.mts';
import { startService, waitFor, waitForHttp, type Service } from '../../harness/n8n/processes.mts';
import { CREDENTIAL, DEMO_TOKEN, jobCreatedEnvelope, setUpRealN8n, triggerWorkflow, type RealN8n, type TriggerWorkflow } from '../../harness/n8n/real-n8n.mts';

const NODE_TYPES = ['jobSignals', 'jobSignalsTrigger', 'jobSignalsPollTrigger'].map((name) => `${PACKAGE_NAME}.${name}`);
const TRIGGER: TriggerWorkflow = { id: 'e2eRegTrigger', webhookId: '5b0f3c2e-8d41-4a7b-9e6f-2c1d0a9b8e73', registration: 'manual' };
const ACTION = { id: 'e2eRegAction', path: '0e7d4c9a-1f2b-4e3d-8a5c-6b7f9d0e1a24' };
const POLL = { id: 'e2eRegPoll' };
const RELEASED = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version as string;
/** The next release: the same build with the patch number one higher. */
const NEXT = RELEASED.replace(/\d+$/, (patch) => String(Number(patch) + 1));

/** A Webhook node that answers with the Job Signals node's output: the action node run by a published workflow. */
function actionWorkflow() {
	return {
		id: ACTION.id,
		name: ACTION.id,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${ACTION.id}-w`,
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: ACTION.path,
				parameters: { httpMethod: 'GET', path: ACTION.path, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
			},
			{
				id: `${ACTION.id}-n`,
				name: 'Job Signals',
				type: `${PACKAGE_NAME}.jobSignals`,
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'collection', operation: 'getAll', returnAll: true },
				credentials: { jobSignalsApi: CREDENTIAL },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Job Signals', type: 'main', index: 0 }]] } },
		pinData: {},
	};
}

/** New Job over all the account's jobs, polled every 10 s (six Poll Times a minute: n8n refuses a faster cron). */
function pollWorkflow() {
	return {
		id: POLL.id,
		name: POLL.id,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${POLL.id}-p`,
				name: 'Job Signals Poll Trigger',
				type: `${PACKAGE_NAME}.jobSignalsPollTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) },
					event: 'newJob',
					jobsFrom: 'search',
					search: '',
					locations: '',
					categories: [],
				},
				credentials: { jobSignalsApi: CREDENTIAL },
			},
		],
		connections: {},
		pinData: {},
	};
}

let registry: LocalRegistry;
let rehearsal: Rehearsal;
let packDir: string;
let n8n: RealN8n;
/** The running `n8n start`, its port and its logged-in REST session. */
let instance: { service: Service; port: number; rest: Rest } | undefined;

const nodesDir = () => join(n8n.userFolder, '.n8n', 'nodes');
/** n8n's processes get the local registry as their community-packages registry, and no hook file. */
const N8N_ENV = () => ({ EXTERNAL_HOOK_FILES: '', N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url });
const logs = () => instance?.service.output() ?? '';
/** What a wait that timed out shows: the end of n8n's output. */
const explainN8n = () => `n8n printed:\n${logs().slice(-4000)}`;

async function startInstance(): Promise<void> {
	const ports = await freeN8nPorts();
	const service = await startN8n(n8n.userFolder, ports, { env: N8N_ENV(), label: 'n8n' });
	await ensureOwner(ports.http);
	instance = { service, port: ports.http, rest: await login(ports.http) };
}

async function restart(): Promise<void> {
	await instance?.service.stop(30_000);
	instance = undefined;
	await startInstance();
}

/** The workflow's finished executions, newest first. */
async function executions(workflowId: string): Promise<{ id: string; status: string }[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: n8n.workflowId(workflowId) }));
	const response = await instance!.rest(`/rest/executions?filter=${filter}&limit=100`);
	if (!response.ok) throw new Error(`GET /rest/executions: ${response.status} ${await response.text()}`);
	const { data } = (await response.json()) as { data: { results: { id: string; status: string }[] } };
	return data.results.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
}

async function nodeTypesServed(): Promise<string[]> {
	const response = await instance!.rest('/types/nodes.json');
	expect(response.status).toBe(200);
	return ((await response.json()) as { name: string }[]).map((type) => type.name);
}

/** A published workflow's webhook path, once n8n has registered it (it answers 404 before). */
async function webhookReady(path: string, method: 'GET' | 'POST'): Promise<void> {
	await waitFor(
		`${path} registered`,
		async () => {
			const response = await fetch(`http://127.0.0.1:${instance!.port}/${path}`, { method, ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
			await response.arrayBuffer();
			return response.status === 404 ? undefined : true;
		},
		120_000,
		explainN8n,
	);
}

const triggerPath = `webhook/${TRIGGER.webhookId}/webhook`;

/** The three nodes, each in its published workflow, against the mock: the checks after install and after update. */
async function expectEachNodeWorks(): Promise<void> {
	expect(await nodeTypesServed()).toEqual(expect.arrayContaining(NODE_TYPES));

	await webhookReady(`webhook/${ACTION.path}`, 'GET');
	const answer = await fetch(`http://127.0.0.1:${instance!.port}/webhook/${ACTION.path}`);
	expect(answer.status, logs()).toBe(200);
	const collections = (await (await fetch(`${n8n.mock.apiUrl}/collections`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } })).json()) as { data: unknown[] };
	expect(collections.data.length).toBeGreaterThan(0);
	expect(await answer.json()).toEqual(collections.data);

	await webhookReady(triggerPath, 'POST');
	const before = (await executions(TRIGGER.id)).length;
	const eventId = `e2e-registry-${randomUUID()}`;
	const delivered = await fetch(`http://127.0.0.1:${instance!.port}/${triggerPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(jobCreatedEnvelope(eventId)),
	});
	expect(delivered.status, logs()).toBe(200);
	expect(await delivered.json()).toEqual({ received: true, emitted: true });
	const triggerRuns = await waitFor('the trigger\'s execution', async () => {
		const list = await executions(TRIGGER.id);
		return list.length > before ? list : undefined;
	}, 60_000, explainN8n);
	expect(triggerRuns.slice(0, triggerRuns.length - before).map((e) => e.status)).toEqual(['success']);

	// A cycle creates jobs; the next poll (at most 10 s later) emits them in one successful execution.
	const pollsBefore = (await executions(POLL.id)).length;
	const cycle = await fetch(`${n8n.mock.appUrl}/__mock/process`, { method: 'POST', headers: { 'content-type': 'application/json' } });
	expect(cycle.status).toBe(200);
	const pollRuns = await waitFor('an execution of the poll trigger', async () => {
		const list = await executions(POLL.id);
		return list.length > pollsBefore ? list : undefined;
	}, 120_000, explainN8n);
	expect(pollRuns.slice(0, pollRuns.length - pollsBefore).every((e) => e.status === 'success'), JSON.stringify(pollRuns)).toBe(true);
}

const installedVersion = () => JSON.parse(readFileSync(join(nodesDir(), 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8')).version as string;

beforeAll(async () => {
	registry = await startLocalRegistry();
	packDir = mkdtempSync(join(tmpdir(), 'job-signals-publish-'));
	// Both packages reach the registry the way a release publishes them: publish.yml's steps.
	rehearsal = await rehearseRelease(registry);
	n8n = await setUpRealN8n(['--jobs', '500', '--signals', '500', '--sources', '20', '--rate-limit', '0'], async (userFolder) => {
		// What n8n's docs tell self-hosted users to run (the folder is new: npm creates its package.json).
		const nodes = join(userFolder, '.n8n', 'nodes');
		mkdirSync(nodes, { recursive: true });
		await registry.npm(['install', PACKAGE_NAME], nodes);
	});
	await startInstance();
	// Imported and published live in the n8n just started (its REST API, as the editor does): the restarts below start it again with them.
	await n8n.connect(() => instance!.rest);
	await n8n.importWorkflows([actionWorkflow(), triggerWorkflow(TRIGGER), pollWorkflow()]);
	for (const id of [ACTION.id, TRIGGER.id, POLL.id]) await n8n.publish(id);
});

afterAll(async () => {
	await instance?.service.stop(30_000);
	await n8n?.close();
	await registry?.stop();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

describe('the release (publish.yml) against the local registry', () => {
	it('publishes both packages through n8n-node release and the mock\'s step, each asking for provenance, past both release guards', () => {
		expect(rehearsal.publishes, rehearsal.output).toEqual([
			{ provenance: true, folder: '.', args: 'publish' },
			{ provenance: true, folder: '.', args: 'publish --provenance --access public -w mock-server' },
		]);
		expect(rehearsal.output).toContain(`release guard: ${PACKAGE_NAME}@${RELEASED} from https://github.com/`);
		expect(rehearsal.output).toContain(`release guard: ${MOCK_PACKAGE_NAME}@${RELEASED} from https://github.com/`);
		// n8n-node release ran the official lint and build before it published.
		expect(rehearsal.output).toContain('n8n-node lint');
		expect(rehearsal.output).toContain('n8n-node build');
	});

	it('the published package is n8n-node build\'s output: one JavaScript file per node and credential source, no runtime dependencies', async () => {
		const view = JSON.parse(await registry.npm(['view', `${PACKAGE_NAME}@${RELEASED}`, '--json'], packDir)) as { dependencies?: object; dist: { tarball: string } };
		expect(view.dependencies).toBeUndefined();
		const tarball = join(packDir, 'released.tgz');
		writeFileSync(tarball, Buffer.from(await (await fetch(view.dist.tarball, { headers: { authorization: `Bearer ${registry.token}` } })).arrayBuffer()));
		const shipped = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').map((path) => path.replace(/^package\//, ''));
		const sources = execFileSync('git', ['ls-files', 'nodes', 'credentials'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim().split('\n').filter((path) => path.endsWith('.ts'));
		expect(sources.length).toBeGreaterThan(50);
		for (const source of sources) expect(shipped).toContain(`dist/${source.replace(/\.ts$/, '.js')}`);
		expect(shipped.filter((path) => /mock-server|\.mts$|zod/.test(path))).toEqual([]);
	});
});

describe('installed from a registry as users install it', () => {
	it('`npm install n8n-nodes-job-signals` puts the package alone into the fresh nodes folder', () => {
		expect(JSON.parse(readFileSync(join(nodesDir(), 'package.json'), 'utf8')).dependencies).toEqual({ [PACKAGE_NAME]: `^${RELEASED}` });
		expect(installedVersion()).toBe(RELEASED);
		// n8n-workflow is an optional peer: npm leaves it to the n8n that loads the package (no second copy).
		expect(readdirSync(join(nodesDir(), 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual([PACKAGE_NAME]);
	});

	it('after n8n starts, each of the three nodes runs in a published workflow', async () => {
		await expectEachNodeWorks();
	});

	it('n8n\'s own installer (Settings → Community nodes → Install) refuses the local registry without an enterprise licence', async () => {
		const response = await instance!.rest('/rest/community-packages', { method: 'POST', body: JSON.stringify({ name: PACKAGE_NAME }) });
		const text = await response.text();
		expect(response.ok, text).toBe(false);
		expect(text).toContain('Your license does not allow for');
		// Nothing changed in the nodes folder; Settings lists no package (npm, not n8n, installed it).
		expect(installedVersion()).toBe(RELEASED);
		const listed = (await (await instance!.rest('/rest/community-packages')).json()) as { data: unknown[] };
		expect(listed.data).toEqual([]);
	});

	it(`a higher version published (${NEXT}), \`npm update\`, restart: the same workflows keep working`, async () => {
		await registry.npm(['publish', packForRegistry('package', packDir, NEXT)], packDir);
		await registry.npm(['update', PACKAGE_NAME], nodesDir());
		expect(installedVersion()).toBe(NEXT);
		await restart();
		await expectEachNodeWorks();
	});

	it('`npm uninstall`, restart: n8n starts cleanly without the nodes, and the workflows that used them say so', async () => {
		await registry.npm(['uninstall', PACKAGE_NAME], nodesDir());
		expect(existsSync(join(nodesDir(), 'node_modules', PACKAGE_NAME))).toBe(false);
		await restart();
		const served = await nodeTypesServed();
		for (const type of NODE_TYPES) expect(served).not.toContain(type);
		// Measured on n8n 2.40.7: the workflows stay published; their webhooks answer 400 naming the missing node
		// type, and the poll trigger's workflow is named in n8n's log at start-up (its REST API's activation-error
		// endpoint answers {"data":null} for all three).
		const action = await fetch(`http://127.0.0.1:${instance!.port}/webhook/${ACTION.path}`);
		expect(action.status).toBe(400);
		expect(await action.text()).toContain(`Unrecognized node type: ${NODE_TYPES[0]}`);
		const trigger = await fetch(`http://127.0.0.1:${instance!.port}/${triggerPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(jobCreatedEnvelope(`e2e-registry-${randomUUID()}`)),
		});
		expect(trigger.status).toBe(400);
		expect(await trigger.text()).toContain(`Unrecognized node type: ${NODE_TYPES[1]}`);
		await waitFor(
			'n8n naming the poll trigger\'s workflow',
			async () => (logs().includes(`"Job Signals Poll Trigger": Unrecognized node type: ${NODE_TYPES[2]}`) ? true : undefined),
			60_000,
			explainN8n,
		);
	});
});

describe('the mock installed from the registry', () => {
	it('in an empty folder, `npx job-signals-mock-server` starts and serves /v2/collections', async () => {
		const folder = mkdtempSync(join(tmpdir(), 'job-signals-npx-'));
		const cache = mkdtempSync(join(tmpdir(), 'job-signals-npx-cache-'));
		const port = await freePort();
		// npx runs the package's one bin with the Node on PATH: this test's Node first (the mock needs Node ≥ 22).
		// Its own npm cache, so npx cannot reuse an earlier run's copy of this version.
		const env = { ...registry.npmEnv, PATH: `${dirname(process.execPath)}:${process.env.PATH}`, npm_config_cache: cache };
		const mock = startService('npx', ['--yes', MOCK_PACKAGE_NAME, '--port', String(port)], { cwd: folder, env, label: 'npx mock' });
		try {
			await waitForHttp(`http://127.0.0.1:${port}/__mock/accounts`, mock, 180_000);
			const response = await fetch(`http://127.0.0.1:${port}/v2/collections`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
			expect(response.status).toBe(200);
			const body = (await response.json()) as { data: unknown[] };
			expect(body.data.length).toBeGreaterThan(0);
		} finally {
			await mock.stop();
			rmSync(folder, { recursive: true, force: true });
			rmSync(cache, { recursive: true, force: true });
		}
	});
});
