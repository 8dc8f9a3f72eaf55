/**
 * `npm start`: a local n8n with this package installed as a community package,
 * the mock with demo data, a credential pointing at the mock and two example
 * workflows (the trigger one active, registered with the mock). Everything
 * lives in `.n8n-local/` (never ~/.n8n), the mock's state folder too: n8n does
 * not register a published trigger again when it restarts, so the mock must
 * still hold the registration on the second start. Ctrl-C stops both
 * processes and exits 0 (package.json `exec`s this script, so no shell between
 * npm and it turns the Ctrl-C into exit 130).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../harness/n8n/config.mts';
import { installN8n } from '../harness/n8n/install.mts';
import { ensureOwner, importExampleCredential, LOCAL_OWNER, n8nCliOrThrow, packAndInstallPackage, startMock, startN8n } from '../harness/n8n/local-n8n.mts';
import { freePort, isPortFree } from '../harness/n8n/ports.mts';

const MOCK_PORT = Number(process.env.MOCK_PORT ?? 4010);
/** Short, so the demo shows events without curl; MOCK_CYCLE_INTERVAL=0 turns the timer off. */
const CYCLE_INTERVAL = Number(process.env.MOCK_CYCLE_INTERVAL ?? 30);
const userFolder = join(REPO_ROOT, '.n8n-local');
const stateDir = join(userFolder, 'mock-state');
/** The editor's port of the last start: the mock keeps the trigger's registration at that address. */
const lastPortFile = join(userFolder, '.n8n-port');
const examples = join(REPO_ROOT, 'examples');
const TRIGGER_WORKFLOW_ID = 'jsExampleTrigger';

/** N8N_PORT if set; else the last start's port (or 5678) when free; else any free port, with a warning. */
async function editorPort(): Promise<number> {
	if (process.env.N8N_PORT) return Number(process.env.N8N_PORT);
	const last = existsSync(lastPortFile) ? Number(readFileSync(lastPortFile, 'utf8')) : undefined;
	const wanted = last ?? 5678;
	if (await isPortFree(wanted)) return wanted;
	const port = await freePort();
	if (last !== undefined) {
		console.warn(`Port ${last} (n8n's port last time) is busy; n8n takes ${port}. The trigger stays registered at port ${last}: free it, or unpublish and publish the trigger workflow.`);
	}
	return port;
}

async function main(): Promise<void> {
	await installN8n();
	console.log('Installing the package into .n8n-local/.n8n/nodes (npm pack, then npm install as n8n does)');
	packAndInstallPackage(userFolder);

	// Before the workflows: they refer to it. The mock's address is known before it starts.
	const mockUrl = `http://127.0.0.1:${MOCK_PORT}`;
	console.log(`Pointing the credential at ${mockUrl}`);
	await importExampleCredential(userFolder, mockUrl);
	const imported = join(userFolder, '.examples-imported');
	if (!existsSync(imported)) {
		console.log('Importing the example workflows');
		await n8nCliOrThrow(userFolder, ['import:workflow', '--separate', `--input=${join(examples, 'workflows')}`]);
		await n8nCliOrThrow(userFolder, ['publish:workflow', `--id=${TRIGGER_WORKFLOW_ID}`]);
		writeFileSync(imported, 'Delete this file (or .n8n-local/) to import the examples again.\n');
	}

	console.log(`Starting the mock on port ${MOCK_PORT} (state in .n8n-local/mock-state)`);
	const cycleFlags = CYCLE_INTERVAL > 0 ? ['--cycle-interval', String(CYCLE_INTERVAL)] : [];
	const mock = await startMock(MOCK_PORT, ['--state-dir', stateDir, ...cycleFlags], true);
	const N8N_PORT = await editorPort();
	console.log(`Starting n8n on port ${N8N_PORT} (about 20 s)`);
	const n8n = await startN8n(userFolder, { http: N8N_PORT, broker: await freePort() }, { echo: true });
	writeFileSync(lastPortFile, String(N8N_PORT));
	await ensureOwner(N8N_PORT);

	console.log(`
  n8n editor:     http://127.0.0.1:${N8N_PORT}   (log in: ${LOCAL_OWNER.email} / ${LOCAL_OWNER.password})
  Mock API:       ${mock.apiUrl}   (token demo-token-job-signals)
  Mock app URL:   ${mock.appUrl}
  Cycles:         ${CYCLE_INTERVAL > 0 ? `every ${CYCLE_INTERVAL} s (MOCK_CYCLE_INTERVAL=0 turns them off); each sends events to the active trigger workflow` : 'off (MOCK_CYCLE_INTERVAL=0)'}
  Run one now:    curl -X POST -H 'Content-Type: application/json' ${mock.appUrl}/__mock/process
  One event:      curl -X POST -H 'Content-Type: application/json' ${mock.appUrl}/__mock/events -d '{"event_type":"job_deleted"}'
  Ctrl-C stops n8n and the mock (exit code 0); their state stays in .n8n-local/.
`);

	let stopping = false;
	const stop = async (signal: string) => {
		// npm forwards the terminal's Ctrl-C to this process, which gets it from the terminal too: only the first counts.
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping n8n and the mock`);
		await Promise.all([n8n.stop(), mock.stop()]);
		process.exit(0);
	};
	process.on('SIGINT', () => void stop('SIGINT'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
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
