/**
 * A local npm registry: verdaccio (pinned here, installed into the cache on
 * first use) with its storage in a temporary folder, on a free loopback port. The package and the mock are
 * published to it with `npm publish` and installed from it with `npm install`,
 * as users install them from npmjs.com. Every other name is proxied to the
 * registry npm is configured with (the package's peer n8n-workflow, which npm
 * installs beside it; the mock's dependencies); our two names are never
 * proxied, so only what a test published can be installed under them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CACHE_ROOT, PACKAGE_NAME, REPO_ROOT } from './config.mts';
import { freePort } from './ports.mts';
import { runCommand, startService, waitForHttp } from './processes.mts';

export const MOCK_PACKAGE_NAME = 'job-signals-mock-server';

/**
 * Not a devDependency: it needs an npm override (its verdaccio-audit asks for
 * node-fetch's `cjs` dist-tag, which the reachable registry lacks), and the
 * official community lint refuses `overrides` in the package's package.json.
 */
const VERDACCIO = { version: '6.10.4', overrides: { 'verdaccio-audit': { 'node-fetch': '2.7.0' } } };
const VERDACCIO_DIR = join(CACHE_ROOT, `verdaccio-${VERDACCIO.version}`);

/** Installs verdaccio into its cache folder once (a marker file says it is complete); returns its bin. */
async function installVerdaccio(): Promise<string> {
	const bin = join(VERDACCIO_DIR, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	const marker = join(VERDACCIO_DIR, '.installed');
	if (existsSync(marker) && readFileSync(marker, 'utf8') === VERDACCIO.version) return bin;
	rmSync(VERDACCIO_DIR, { recursive: true, force: true });
	mkdirSync(VERDACCIO_DIR, { recursive: true });
	writeFileSync(
		join(VERDACCIO_DIR, 'package.json'),
		JSON.stringify({ name: 'job-signals-local-registry', private: true, dependencies: { verdaccio: VERDACCIO.version }, overrides: VERDACCIO.overrides }, null, 2),
	);
	const result = await runCommand('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: VERDACCIO_DIR,
		stdoutFile: join(VERDACCIO_DIR, 'install.log'),
		timeoutMs: 600_000,
	});
	if (result.code !== 0) throw new Error(`npm install of verdaccio ${VERDACCIO.version} in ${VERDACCIO_DIR} failed (exit ${result.code}):\n${result.stderr}`.slice(0, 6000));
	writeFileSync(marker, VERDACCIO.version);
	return bin;
}

export interface LocalRegistry {
	url: string;
	/** The publisher's token (npmEnv's user config holds it too). */
	token: string;
	/**
	 * The environment for an `npm` command that uses this registry as a user's
	 * npm would: a user config naming the registry and the publisher's token,
	 * and none of the npm_config_* variables of the npm script that runs the tests.
	 */
	npmEnv: NodeJS.ProcessEnv;
	/** `npm <args>` in `cwd` against this registry; throws with npm's output when it fails. */
	npm(args: string[], cwd: string): Promise<string>;
	stop(): Promise<void>;
}

/** The registry the machine's npm uses (where verdaccio sends every other name). */
function upstreamRegistry(): string {
	return execFileSync('npm', ['config', 'get', 'registry', '--loglevel=error'], { encoding: 'utf8' }).trim();
}

export async function startLocalRegistry(): Promise<LocalRegistry> {
	const bin = await installVerdaccio();
	const folder = mkdtempSync(join(tmpdir(), 'job-signals-registry-'));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}/`;
	const ownPackage = { access: '$all', publish: '$authenticated', unpublish: '$authenticated' };
	// JSON is YAML: verdaccio reads this file with its YAML parser.
	const config = {
		storage: join(folder, 'storage'),
		auth: { htpasswd: { file: join(folder, 'htpasswd') } },
		uplinks: { upstream: { url: upstreamRegistry(), timeout: '60s' } },
		packages: { [PACKAGE_NAME]: ownPackage, [MOCK_PACKAGE_NAME]: ownPackage, '**': { access: '$all', proxy: 'upstream' } },
		web: { enable: false },
		log: { type: 'stdout', format: 'pretty', level: 'warn' },
	};
	const configFile = join(folder, 'config.yaml');
	writeFileSync(configFile, JSON.stringify(config, null, 2));
	const service = startService(process.execPath, [bin, '--config', configFile, '--listen', `127.0.0.1:${port}`], { cwd: folder, label: 'verdaccio' });
	try {
		await waitForHttp(`${url}-/ping`, service, 60_000);
		// The publisher's account (verdaccio's htpasswd adds a user on first login).
		const response = await fetch(`${url}-/user/org.couchdb.user:e2e-publisher`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'e2e-publisher', password: 'e2e-publisher-password' }),
		});
		if (!response.ok) throw new Error(`verdaccio refused the publisher's account: ${response.status} ${await response.text()}`);
		const { token } = (await response.json()) as { token: string };
		const userConfig = join(folder, 'npmrc');
		writeFileSync(userConfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\nfund=false\naudit=false\nupdate-notifier=false\n`);
		const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
		Object.assign(npmEnv, { npm_config_userconfig: userConfig, npm_config_yes: 'true' });
		return {
			url,
			token,
			npmEnv,
			async npm(args, cwd) {
				const output = mkdtempSync(join(folder, 'npm-'));
				try {
					const result = await runCommand('npm', args, { cwd, env: npmEnv, stdoutFile: join(output, 'stdout'), timeoutMs: 300_000 });
					if (result.code !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`.slice(0, 6000));
					return result.stdout;
				} finally {
					rmSync(output, { recursive: true, force: true });
				}
			},
			async stop() {
				await service.stop();
				rmSync(folder, { recursive: true, force: true });
			},
		};
	} catch (error) {
		await service.stop();
		rmSync(folder, { recursive: true, force: true });
		throw error;
	}
}

/**
 * `npm pack` of the built package (the repository root) or of the mock's
 * workspace into `destination`, with the version set to `version` when given
 * (a later release of the same build); returns the tarball's path.
 */
export function packForRegistry(which: 'package' | 'mock', destination: string, version?: string): string {
	const source = which === 'package' ? REPO_ROOT : join(REPO_ROOT, 'mock-server');
	const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', destination, '--loglevel=error'], { cwd: source, encoding: 'utf8' })) as {
		filename: string;
	}[];
	const tarball = join(destination, packed.filename);
	if (!version) return tarball;
	const unpacked = mkdtempSync(join(destination, 'unpacked-'));
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
	execFileSync('npm', ['pkg', 'set', `version=${version}`], { cwd: join(unpacked, 'package') });
	const [repacked] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination, '--loglevel=error'], { cwd: join(unpacked, 'package'), encoding: 'utf8' }),
	) as { filename: string }[];
	rmSync(unpacked, { recursive: true, force: true });
	return join(destination, repacked.filename);
}
