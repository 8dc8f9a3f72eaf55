/**
 * Installs the pinned Stoplight Prism CLI into the cache
 * (`~/.cache/n8n-nodes-job-signals/prism-<version>`) once, as harness/n8n/install.mts installs n8n: a marker
 * says the folder is complete, a lock makes two first runs take turns, and a run that finds the marker
 * downloads nothing. Prism is no dependency of either package: only `npm run bench:mock-prism` uses it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_ROOT } from '../../harness/n8n/config.mts';
import { acquireInstallLock } from '../../harness/n8n/install-lock.mts';
import { runCommand } from '../../harness/n8n/processes.mts';

/**
 * The newest release whose `engines` admit the project's Node 24.9 (the `node` devDependency) and Node 20:
 * 5.15.10 and later ask for Node ≥ 24.14. None of its 185 packages has an install script.
 */
export const PRISM_VERSION = '5.14.2';

const PRISM_DIR = join(CACHE_ROOT, `prism-${PRISM_VERSION}`);
const MARKER = join(PRISM_DIR, '.installed');
/** Beside the folder, not in it: the install empties and refills the folder. */
const LOCK = `${PRISM_DIR}.lock`;

/** The CLI's entry file, run with `node`. */
export const PRISM_BIN = join(PRISM_DIR, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

const installed = () => existsSync(MARKER) && readFileSync(MARKER, 'utf8').trim() === PRISM_VERSION;

/** Returns the CLI's entry file, installing Prism first if the cache does not hold it. */
export async function installPrism(): Promise<string> {
	if (installed()) return PRISM_BIN;
	mkdirSync(CACHE_ROOT, { recursive: true });
	const release = await acquireInstallLock(LOCK, {
		onWait: (pid) => console.log(`Another run (PID ${pid}) is installing Prism ${PRISM_VERSION} into ${PRISM_DIR}; waiting for it.`),
	});
	try {
		// The run we waited for may have installed it.
		if (!installed()) await install();
	} finally {
		release();
	}
	return PRISM_BIN;
}

async function install(): Promise<void> {
	console.log(`Installing @stoplight/prism-cli ${PRISM_VERSION} into ${PRISM_DIR} (first run only, about 90 MB)`);
	rmSync(PRISM_DIR, { recursive: true, force: true });
	mkdirSync(PRISM_DIR, { recursive: true });
	writeFileSync(join(PRISM_DIR, 'package.json'), JSON.stringify({ name: 'job-signals-prism', private: true, dependencies: { '@stoplight/prism-cli': PRISM_VERSION } }, null, 2));
	const log = join(PRISM_DIR, 'install.log');
	const result = await runCommand('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: PRISM_DIR, stdoutFile: log, timeoutMs: 600_000 });
	if (result.code !== 0) throw new Error(`npm install of @stoplight/prism-cli ${PRISM_VERSION} in ${PRISM_DIR} failed (exit ${result.code}); its output is in ${log}:\n${result.stderr.slice(-4000)}`);
	// npm resolved what the folder's package.json asked for: exactly this version.
	const version = JSON.parse(readFileSync(join(PRISM_DIR, 'node_modules', '@stoplight', 'prism-cli', 'package.json'), 'utf8')).version as string;
	if (version !== PRISM_VERSION) throw new Error(`npm installed @stoplight/prism-cli ${version} into ${PRISM_DIR}, not ${PRISM_VERSION}`);
	writeFileSync(MARKER, `${PRISM_VERSION}\n`);
}
