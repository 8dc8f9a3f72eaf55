/**
 * `npm start`: a local n8n with this package installed as a community package,
 * the mock with demo data, a credential pointing at the mock and two example
 * workflows (the trigger one active, registered with the mock). Everything
 * lives in `.n8n-local/` (never ~/.n8n); Ctrl-C stops both processes.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './config.mts';
import { installN8n } from './install.mts';
import { ensureOwner, LOCAL_OWNER, n8nCliOrThrow, packAndInstallPackage, startMock, startN8n } from './local-n8n.mts';
import { freePort, isPortFree } from './ports.mts';

const MOCK_PORT = Number(process.env.MOCK_PORT ?? 4010);
const userFolder = join(REPO_ROOT, '.n8n-local');
const examples = join(REPO_ROOT, 'examples');
const TRIGGER_WORKFLOW_ID = 'jsExampleTrigger';

async function main(): Promise<void> {
	await installN8n();
	console.log('Installing the package into .n8n-local/.n8n/nodes (npm pack, then npm install as n8n does)');
	packAndInstallPackage(userFolder);

	const imported = join(userFolder, '.examples-imported');
	if (!existsSync(imported)) {
		console.log('Importing the credential and the example workflows');
		await n8nCliOrThrow(userFolder, ['import:credentials', `--input=${join(examples, 'credentials.json')}`]);
		await n8nCliOrThrow(userFolder, ['import:workflow', '--separate', `--input=${join(examples, 'workflows')}`]);
		await n8nCliOrThrow(userFolder, ['publish:workflow', `--id=${TRIGGER_WORKFLOW_ID}`]);
		writeFileSync(imported, 'Delete this file (or .n8n-local/) to import the examples again.\n');
	}

	console.log(`Starting the mock on port ${MOCK_PORT}`);
	const mock = await startMock(MOCK_PORT, [], true);
	// The editor's port: N8N_PORT if set, else 5678 when free, else any free port; the broker's is always free.
	const N8N_PORT = Number(process.env.N8N_PORT ?? ((await isPortFree(5678)) ? 5678 : await freePort()));
	console.log(`Starting n8n on port ${N8N_PORT} (about 20 s)`);
	const n8n = await startN8n(userFolder, { http: N8N_PORT, broker: await freePort() }, { echo: true });
	await ensureOwner(N8N_PORT);

	console.log(`
  n8n editor:     http://127.0.0.1:${N8N_PORT}   (log in: ${LOCAL_OWNER.email} / ${LOCAL_OWNER.password})
  Mock API:       ${mock.apiUrl}   (token demo-token-job-signals)
  Mock app URL:   ${mock.appUrl}
  Run a processing cycle (sends webhook events to the active trigger workflow):
                  curl -X POST ${mock.appUrl}/__mock/process
  Ctrl-C stops n8n and the mock.
`);

	let stopping = false;
	const stop = async (signal: string) => {
		stopping = true;
		console.log(`\n${signal}: stopping n8n and the mock`);
		await Promise.all([n8n.stop(), mock.stop()]);
		process.exit(0);
	};
	process.once('SIGINT', () => void stop('SIGINT'));
	process.once('SIGTERM', () => void stop('SIGTERM'));
	const first = await Promise.race([n8n.exited.then(() => 'n8n'), mock.exited.then(() => 'the mock')]);
	if (stopping) return;
	console.error(`${first} exited; stopping the other`);
	await Promise.all([n8n.stop(), mock.stop()]);
	process.exit(1);
}

main().catch((error: unknown) => {
	console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
});
