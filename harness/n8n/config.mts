/**
 * Where the local n8n lives and how it is started: one place for the version,
 * the cache folder, the ports and the environment every script gives n8n.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The n8n versions the package is tested on, each with the npm overrides its
 * install needs from the registry reachable here (all measured with
 * `npm install --ignore-scripts`). Not here: n8n 2.41.3, which does not install
 * (`@n8n/agents@0.26.2` is missing from the registry), so 2.41.1 is the newest 2.41.
 */
export const N8N_VERSIONS: Record<string, { overrides: Record<string, string> }> = {
	// linkedom 0.18.15 needs `cssomnom`, absent from the registry.
	'2.40.7': { overrides: { linkedom: '0.18.14' } },
	'2.41.1': { overrides: { linkedom: '0.18.14' } },
	// n8n 1.x asks for xlsx as a tarball from the SheetJS CDN; the registry's newest xlsx stands in.
	'1.123.81': { overrides: { xlsx: '0.18.5' } },
};

/**
 * The e2e files that cover the three nodes (the action node's resources, the webhook trigger in regular mode, the poll
 * trigger) and the node as an AI agent's tool: run on every tested version but the default one, which runs every e2e file.
 */
export const MATRIX_E2E_FILES = [
	'test/e2e/resources.e2e.test.mts',
	'test/e2e/trigger-regular.e2e.test.mts',
	'test/e2e/poll-trigger.e2e.test.mts',
	// What README says each version needs for AI agents (nothing): shown on each version.
	'test/e2e/ai-agent.e2e.test.mts',
];

/** The version `npm start` and the e2e tests run; another is chosen with JOB_SIGNALS_N8N_VERSION (read only here). */
export const DEFAULT_N8N_VERSION = '2.40.7';

export const N8N_VERSION = process.env.JOB_SIGNALS_N8N_VERSION || DEFAULT_N8N_VERSION;
if (!(N8N_VERSION in N8N_VERSIONS)) {
	throw new Error(`JOB_SIGNALS_N8N_VERSION=${N8N_VERSION} is not one of the tested n8n versions (${Object.keys(N8N_VERSIONS).join(', ')}): add it to N8N_VERSIONS in harness/n8n/config.mts`);
}
export const N8N_OVERRIDES = N8N_VERSIONS[N8N_VERSION].overrides;

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const PACKAGE_NAME = 'n8n-nodes-job-signals';

/** Outside the repository, so a fresh clone on the same machine reuses what the harness installs there. */
export const CACHE_ROOT = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'n8n-nodes-job-signals');

/** The n8n under test: one folder per version. */
export const CACHE_DIR = process.env.JOB_SIGNALS_N8N_CACHE ?? join(CACHE_ROOT, `n8n-${N8N_VERSION}`);

export const N8N_BIN = join(CACHE_DIR, 'node_modules', 'n8n', 'bin', 'n8n');

/** A fixed key for project-local user folders only (never a real instance). */
export const LOCAL_ENCRYPTION_KEY = 'job-signals-local-n8n-not-a-secret';

/** The two ports every n8n process listens on: its HTTP server and its task runners' broker. */
export interface N8nPorts {
	http: number;
	broker: number;
}

/** The environment n8n gets: its own user folder and ports, no telemetry, bound to loopback. */
export function n8nEnv(userFolder: string, ports: N8nPorts): NodeJS.ProcessEnv {
	const port = ports.http;
	return {
		...process.env,
		// A test runner's NODE_ENV=test would silence n8n's CLI output.
		NODE_ENV: 'production',
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: LOCAL_ENCRYPTION_KEY,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(port),
		// Without it every n8n on the machine wants 5679 ("Task Broker's port 5679 is already in use").
		N8N_RUNNERS_BROKER_PORT: String(ports.broker),
		N8N_PROTOCOL: 'http',
		// n8n 1.x reads only WEBHOOK_URL; n8n 2 reads N8N_WEBHOOK_URL first, then WEBHOOK_URL.
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		// Lists the package under Settings → Community nodes (see the hook file).
		EXTERNAL_HOOK_FILES: join(import.meta.dirname, 'record-installed-packages.cjs'),
		// What docs/deployment.md recommends: an expression isolate only when an expression needs one, so a
		// trigger 1.1 delivery costs what one to n8n's Webhook node costs. The caller's environment still decides.
		N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: process.env.N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE ?? 'true',
		// n8n 2's own default (WAL, 3 read connections), set so that n8n 1.x (default 0, no WAL, a deprecation
		// warning) runs the same way. With 1, n8n answers 503 "Database is not ready!" at 32 deliveries in
		// flight: its ping gets a read connection of its own less often (docs/benchmarks.md).
		DB_SQLITE_POOL_SIZE: '3',
	};
}

/**
 * An n8n whose tests read nothing of its editor (startDeployment's, but editor's and downtime's): `n8n start` then skips
 * writing the editor's files into the user folder, which it does at every boot (CPU ×0.70: docs/benchmarks.md). It
 * also writes no /types/*.json, the node types the editor lists: the files that read them (resources, in the shared
 * n8n; registry-install) start n8n with its editor.
 */
export const HEADLESS_ENV = { N8N_DISABLE_UI: 'true' };

/**
 * n8n's durable poll cursors (n8n 2.40): the flag and the three it needs; without them n8n logs
 * "N8N_POLLER_DURABLE_CURSORS_ENABLED requires …; durable poll cursors stay disabled" (PollCursorService).
 */
export const DURABLE_POLL_CURSORS_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};
