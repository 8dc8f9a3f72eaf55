/**
 * Installs the pinned Stoplight Prism CLI into the cache (`~/.cache/n8n-nodes-job-signals/prism-<version>`,
 * beside the repository's cached n8n) once: npm installs it into a fresh folder beside that one, which is
 * renamed into place once complete (with a marker naming the version), so the folder is never seen half
 * installed; a run that finds it downloads nothing. Two first runs at once both download, and the one that
 * renames second drops its copy. Prism is no dependency of either package: only `npm run bench:mock-prism` uses it.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The newest release whose `engines` admit the project's Node 24.9 (the `node` devDependency) and Node 20:
 * 5.15.10 and later ask for Node ≥ 24.14. None of its 185 packages has an install script.
 */
export const PRISM_VERSION = '5.14.2';

const CACHE_ROOT = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'n8n-nodes-job-signals');
const PRISM_DIR = join(CACHE_ROOT, `prism-${PRISM_VERSION}`);
const MARKER = '.installed';
const CLI = join('node_modules', '@stoplight', 'prism-cli');

/** The CLI's entry file, run with `node`. */
export const PRISM_BIN = join(PRISM_DIR, CLI, 'dist', 'index.js');

const installed = (folder: string) => existsSync(join(folder, MARKER)) && readFileSync(join(folder, MARKER), 'utf8').trim() === PRISM_VERSION;

/** Returns the CLI's entry file, installing Prism first if the cache does not hold it. */
export function installPrism(): string {
	if (installed(PRISM_DIR)) return PRISM_BIN;
	mkdirSync(CACHE_ROOT, { recursive: true });
	const staging = mkdtempSync(`${PRISM_DIR}.installing-`);
	try {
		install(staging);
		// A run that finished first keeps its copy; a folder left half-done by an older way of installing goes.
		if (!installed(PRISM_DIR)) {
			rmSync(PRISM_DIR, { recursive: true, force: true });
			renameSync(staging, PRISM_DIR);
		}
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
	return PRISM_BIN;
}

function install(folder: string): void {
	console.log(`Installing @stoplight/prism-cli ${PRISM_VERSION} into ${PRISM_DIR} (first run only, about 90 MB)`);
	writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'job-signals-prism', private: true, dependencies: { '@stoplight/prism-cli': PRISM_VERSION } }, null, 2));
	const log = join(folder, 'install.log');
	const output = openSync(log, 'w');
	const result = spawnSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: ['ignore', output, output], timeout: 600_000 });
	closeSync(output);
	if (result.status !== 0) {
		throw new Error(`npm install of @stoplight/prism-cli ${PRISM_VERSION} failed (exit ${result.status ?? result.signal}); its output:\n${readFileSync(log, 'utf8').slice(-4000)}`);
	}
	// npm resolved what the folder's package.json asked for: exactly this version.
	const version = JSON.parse(readFileSync(join(folder, CLI, 'package.json'), 'utf8')).version as string;
	if (version !== PRISM_VERSION) throw new Error(`npm installed @stoplight/prism-cli ${version}, not ${PRISM_VERSION}`);
	writeFileSync(join(folder, MARKER), `${PRISM_VERSION}\n`);
}
