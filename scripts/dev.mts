/**
 * `npm run dev`: n8n's live-reload loop for this package, as n8n's node-cli template has it, beside the
 * project's cached n8n (the version harness/n8n/config.mts pins) instead of the `n8n@latest` that
 * `n8n-node dev` would fetch (it does not install here, and the pinned n8n is the one the tests run):
 * - `n8n-node dev --external-n8n`: recompiles dist/ on every change (tsc --watch). It draws its own terminal
 *   UI and needs a terminal: q quits, o opens http://localhost:5678.
 * - n8n on N8N_PORT (default 5678) in development with N8N_DEV_RELOAD=true, its user folder .n8n-local/dev; it reloads
 *   the nodes when dist/ changes. Its output goes to .n8n-local/dev/n8n.log. n8n loads its custom folder by
 *   globbing every *.node.js under it, links followed: through the link n8n-node dev makes (to this checkout)
 *   it would also load this repository's devDependency n8n-nodes-base and stop on its first node. So n8n-node
 *   dev makes its link in a folder n8n does not read (.n8n-local/dev/n8n-node-cli), and n8n reads the package
 *   from N8N_CUSTOM_EXTENSIONS, a folder whose one entry links to dist/ (the nodes show as CUSTOM.jobSignals, …).
 * - the mock on MOCK_PORT (default 4011, beside `npm start`'s 4010), its state in .n8n-local/dev/mock-state,
 *   and the example credential pointing at it.
 * Quitting n8n-node dev stops n8n and the mock.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGE_NAME, REPO_ROOT } from '../harness/n8n/config.mts';
import { installN8n } from '../harness/n8n/install.mts';
import { ensureOwner, importExampleCredential, LOCAL_OWNER, startMock, startN8n } from '../harness/n8n/local-n8n.mts';
import { freePort } from '../harness/n8n/ports.mts';
import type { Service } from '../harness/n8n/processes.mts';

const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const MOCK_PORT = Number(process.env.MOCK_PORT ?? 4011);
const devFolder = join(REPO_ROOT, '.n8n-local', 'dev');
const cliFolder = join(devFolder, 'n8n-node-cli');
const extensions = join(devFolder, 'extensions');
/** n8n watches the real path of each entry of its custom folder's node_modules: this one is dist/. */
const distLink = join(extensions, 'node_modules', PACKAGE_NAME);
const builtNode = join(REPO_ROOT, 'dist', 'nodes', 'JobSignals', 'JobSignals.node.js');

async function main(): Promise<number> {
	if (!process.stdin.isTTY) throw new Error('n8n-node dev draws a terminal UI: run `npm run dev` in a terminal');
	mkdirSync(dirname(distLink), { recursive: true });
	if (!existsSync(distLink)) symlinkSync(join(REPO_ROOT, 'dist'), distLink, 'dir');
	await installN8n();
	const started: Service[] = [];
	const cli = spawn(join(REPO_ROOT, 'node_modules', '.bin', 'n8n-node'), ['dev', '--external-n8n', '--custom-user-folder', cliFolder], { cwd: REPO_ROOT, stdio: 'inherit' });
	const cliExited = new Promise<number>((resolve) => cli.on('exit', (code) => resolve(code ?? 1)));
	try {
		const mock = await startMock(MOCK_PORT, ['--state-dir', join(devFolder, 'mock-state')]);
		started.push(mock);
		await importExampleCredential(devFolder, mock.appUrl);
		// n8n reads the nodes when it starts: after tsc --watch has compiled them once (a fresh checkout has no dist/).
		while (!existsSync(builtNode)) await new Promise((resolve) => setTimeout(resolve, 250));
		// n8n watches for changes only in development (NODE_ENV unset or development; the harness starts it in production).
		const env = { NODE_ENV: 'development', N8N_DEV_RELOAD: 'true', N8N_CUSTOM_EXTENSIONS: extensions };
		const n8n = await startN8n(devFolder, { http: N8N_PORT, broker: await freePort() }, { env, label: 'n8n' });
		started.push(n8n);
		const log = createWriteStream(join(devFolder, 'n8n.log'));
		log.write(n8n.output());
		for (const stream of [n8n.child.stdout, n8n.child.stderr]) stream?.on('data', (chunk: Buffer) => log.write(chunk));
		await ensureOwner(N8N_PORT);
		log.write(`\nn8n: http://127.0.0.1:${N8N_PORT} (log in: ${LOCAL_OWNER.email} / ${LOCAL_OWNER.password}); mock API ${mock.apiUrl} (token demo-token-job-signals)\n`);
		const code = await cliExited;
		// q and Ctrl-C end n8n-node dev with 130: the loop's normal end, so exit 0 (as `npm start` does on Ctrl-C).
		return code === 130 ? 0 : code;
	} catch (error) {
		cli.kill('SIGTERM');
		throw error;
	} finally {
		await Promise.all(started.map((service) => service.stop()));
	}
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(`npm run dev failed: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	},
);
