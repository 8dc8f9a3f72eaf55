/**
 * The pieces `npm start`, `npm run dev` and the end-to-end tests share: the package packed
 * and installed into a user folder the way n8n installs a community package,
 * the mock and n8n as child processes, n8n's CLI, and its owner account.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { N8N_BIN, n8nEnv, PACKAGE_NAME, REPO_ROOT, type N8nPorts } from './config.mts';
import { freePort } from './ports.mts';
import { runCommand, startService, waitForHttp, type Service } from './processes.mts';

/**
 * The tarball of the built package that an e2e run packed once for all its files (test/e2e/packed-package.setup.mts sets
 * it): `npm pack` in this workspace takes about 10 s (3 s of CPU), which every file would otherwise spend again.
 */
export const PACKED_TARBALL_ENV = 'JOB_SIGNALS_PACKED_TARBALL';

/** `npm pack` of the built package into `destination`; returns the tarball's path. */
export function packPackage(destination: string): string {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', destination, '--loglevel=error'], { cwd: REPO_ROOT, encoding: 'utf8' }),
	) as { filename: string }[];
	return join(destination, packed.filename);
}

/**
 * Packs the built package once for every n8n started until the returned function runs (their installs read
 * PACKED_TARBALL_ENV), which removes it. A tarball a caller already packed is reused and left to that caller.
 */
export function packOnce(): () => void {
	if (process.env[PACKED_TARBALL_ENV]) return () => {};
	const destination = mkdtempSync(join(tmpdir(), 'job-signals-pack-'));
	const remove = () => rmSync(destination, { recursive: true, force: true });
	try {
		process.env[PACKED_TARBALL_ENV] = packPackage(destination);
	} catch (error) {
		remove();
		throw error;
	}
	return () => {
		delete process.env[PACKED_TARBALL_ENV];
		remove();
	};
}

/** The built package installed into the user folder: the run's tarball (PACKED_TARBALL_ENV), else one packed now (packOnce) and removed after. */
export function packAndInstallPackage(userFolder: string): void {
	const release = packOnce();
	try {
		const packed = process.env[PACKED_TARBALL_ENV]!;
		if (!existsSync(packed)) throw new Error(`${PACKED_TARBALL_ENV}=${packed}: no such file (the run that packed it has ended?)`);
		installPackage(userFolder, packed);
	} finally {
		release();
	}
}

/**
 * Installs the tarball the way n8n 2.40 installs a community package
 * (CommunityPackagesService): extracted into `<userFolder>/.n8n/nodes/node_modules/<name>`,
 * its dev, peer and optional dependencies dropped from its package.json, then
 * `npm install` there with n8n's flags, and the package noted in the nodes
 * folder's package.json. n8n then loads it as `n8n-nodes-job-signals.jobSignals`.
 */
function installPackage(userFolder: string, tarball: string): void {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const packageDir = join(nodesDir, 'node_modules', PACKAGE_NAME);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	const manifestPath = join(packageDir, 'package.json');
	const { devDependencies: _dev, peerDependencies: _peer, optionalDependencies: _optional, ...manifest } = JSON.parse(readFileSync(manifestPath, 'utf8'));
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	execFileSync('npm', ['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false', '--loglevel=error'], {
		cwd: packageDir,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	const nodesManifestPath = join(nodesDir, 'package.json');
	const nodesManifest = existsSync(nodesManifestPath) ? JSON.parse(readFileSync(nodesManifestPath, 'utf8')) : { name: 'installed-nodes', private: true, dependencies: {} };
	nodesManifest.dependencies = { ...nodesManifest.dependencies, [PACKAGE_NAME]: manifest.version };
	writeFileSync(nodesManifestPath, JSON.stringify(nodesManifest, null, 2));
}

/**
 * Every n8n boot of this process (in the e2e tests: of one test file), by what booted: each CLI command (`n8n
 * import:workflow`, …) and each process start (`n8n start`, `webhook`, `worker`) loads all of n8n, about 5 s of CPU.
 * test/e2e/boots.setup.mts prints them when the file ends.
 */
const boots = new Map<string, number>();

function countBoot(what: string): void {
	boots.set(what, (boots.get(what) ?? 0) + 1);
}

/** The n8n boots counted so far: their total, and how many of each kind (`n8n start`, `n8n import:workflow`, …). */
export function n8nBoots(): { total: number; by: Record<string, number> } {
	return { total: [...boots.values()].reduce((sum, count) => sum + count, 0), by: Object.fromEntries(boots) };
}

export async function freeN8nPorts(): Promise<N8nPorts> {
	return { http: await freePort(), broker: await freePort() };
}

/**
 * One n8n CLI command (import:…, publish:…) against the user folder, on free ports of its own (a command may start a
 * task broker); its output, or an error with it when it failed.
 */
export async function n8nCliOrThrow(userFolder: string, args: string[]): Promise<string> {
	countBoot(`n8n ${args[0]}`);
	const outputDir = mkdtempSync(join(userFolder, 'cli-'));
	try {
		const result = await runCommand(process.execPath, [N8N_BIN, ...args], { env: n8nEnv(userFolder, await freeN8nPorts()), cwd: userFolder, stdoutFile: join(outputDir, 'stdout') });
		if (result.code !== 0) throw new Error(`n8n ${args.join(' ')} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`.slice(0, 6000));
		return result.stdout;
	} finally {
		rmSync(outputDir, { recursive: true, force: true });
	}
}

/** examples/credentials.json imported into the user folder, its URLs pointed at the mock (`appUrl`); n8n overwrites it by id each time. */
export async function importExampleCredential(userFolder: string, appUrl: string): Promise<void> {
	const credentials = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'credentials.json'), 'utf8')) as { data: Record<string, string> }[];
	for (const credential of credentials) Object.assign(credential.data, { baseUrl: `${appUrl}/v2`, appUrl });
	const file = join(userFolder, 'credentials.json');
	writeFileSync(file, JSON.stringify(credentials, null, 2));
	await n8nCliOrThrow(userFolder, ['import:credentials', `--input=${file}`]);
}

/**
 * `n8n start` (or, in queue mode, `n8n webhook` / `n8n worker`), resolved once
 * it answers its readiness check. A worker answers on its health-check server,
 * which queue-mode environments turn on (QUEUE_HEALTH_CHECK_ACTIVE).
 */
export async function startN8n(
	userFolder: string,
	ports: N8nPorts,
	options: { echo?: boolean; env?: NodeJS.ProcessEnv; command?: 'start' | 'webhook' | 'worker'; label?: string } = {},
): Promise<Service> {
	const command = options.command ?? 'start';
	countBoot(`n8n ${command}`);
	const service = startService(process.execPath, [N8N_BIN, command], {
		cwd: userFolder,
		env: { ...n8nEnv(userFolder, ports), ...(command === 'worker' ? { QUEUE_HEALTH_CHECK_PORT: String(ports.http) } : {}), ...options.env },
		echo: options.echo,
		label: options.label ?? 'n8n',
	});
	try {
		await waitForHttp(`http://127.0.0.1:${ports.http}/healthz/readiness`, service, 240_000);
	} catch (error) {
		// Killed here: no caller has it to stop, and in its own process group it would outlive the run.
		await service.kill();
		throw error;
	}
	return service;
}

export interface MockProcess extends Service {
	apiUrl: string;
	appUrl: string;
}

/**
 * The standalone mock (built: mock-server/dist/cli.js) on `port`. Its state
 * folder uses node:sqlite, whose "experimental" warning would be the only
 * line of noise in `npm start`.
 */
export async function startMock(port: number, flags: string[] = [], echo = false): Promise<MockProcess> {
	const cli = join(REPO_ROOT, 'mock-server', 'dist', 'cli.js');
	const service = startService(process.execPath, ['--disable-warning=ExperimentalWarning', cli, '--port', String(port), ...flags], {
		cwd: REPO_ROOT,
		echo,
		label: 'mock',
	});
	const appUrl = `http://127.0.0.1:${port}`;
	await waitForHttp(`${appUrl}/__mock/accounts`, service, 60_000);
	return Object.assign(service, { apiUrl: `${appUrl}/v2`, appUrl });
}

export const LOCAL_OWNER = { email: 'owner@job-signals.local', firstName: 'Local', lastName: 'Owner', password: 'JobSignals-local-1' };

/**
 * Creates the owner account on a fresh instance (no-op when one exists), so the editor opens at its login page.
 * n8n 1.x answers its readiness check before it has mounted its REST API: a 404, a 503 "Database is not ready!" or a
 * connection it resets (both seen on 1.123.81 at load 17-22), is tried again for up to 60 s.
 */
export async function ensureOwner(port: number): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		let failure: string;
		try {
			const response = await fetch(`http://127.0.0.1:${port}/rest/owner/setup`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(LOCAL_OWNER),
			});
			if (response.ok || response.status === 400) return;
			const text = await response.text();
			if (response.status !== 404 && response.status !== 503) throw new Error(`owner setup: ${response.status} ${text}`);
			failure = `${response.status} ${text}`;
		} catch (error) {
			if (!(error instanceof TypeError)) throw error;
			// fetch's own failure (the connection refused or reset), not n8n's answer.
			failure = `${error.message}: ${String((error.cause as Error | undefined)?.message)}`;
		}
		if (Date.now() > deadline) throw new Error(`owner setup: still ${failure} after 60 s`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** A logged-in session of n8n's REST API (the editor's own API). */
export type Rest = (path: string, init?: RequestInit) => Promise<Response>;

/** The owner's session (LOCAL_OWNER). */
export async function login(port: number): Promise<Rest> {
	return restSession(port, await loginCookie(port));
}

/**
 * The owner's login, as the cookie its session sends. One login shared by every caller of the same n8n
 * (harness/n8n/shared-n8n.mts): n8n allows 5 logins a minute per account (2.x) or per address (1.x).
 */
export async function loginCookie(port: number): Promise<string> {
	const response = await fetch(`http://127.0.0.1:${port}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: LOCAL_OWNER.email, password: LOCAL_OWNER.password }),
	});
	if (!response.ok) throw new Error(`login: ${response.status} ${await response.text()}`);
	return response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** n8n's REST API on the session of a login's cookie (loginCookie). */
export function restSession(port: number, cookie: string): Rest {
	return (path, init = {}) =>
		fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers: { 'content-type': 'application/json', ...init.headers, cookie } });
}
