/**
 * The e2e files that cover the three nodes (the action node's resources, the
 * webhook trigger in regular mode, the poll trigger) and the node as an AI agent's tool, run on every tested n8n
 * version but the default one, which `npm run test:e2e` already runs them on.
 * One vitest run per version, with JOB_SIGNALS_N8N_VERSION set (each version
 * has its own cache folder, installed on first use); one line per version at
 * the end, with its time; exits 1 when any version failed.
 */
import { spawn } from 'node:child_process';
import { DEFAULT_N8N_VERSION, N8N_VERSIONS, REPO_ROOT } from './config.mts';

export const MATRIX_E2E_FILES = [
	'test/e2e/resources.e2e.test.mts',
	'test/e2e/trigger-regular.e2e.test.mts',
	'test/e2e/poll-trigger.e2e.test.mts',
	// What README says each version needs for AI agents (nothing): shown on each version.
	'test/e2e/ai-agent.e2e.test.mts',
];

function runVitest(version: string): Promise<number | null> {
	return new Promise((resolve, reject) => {
		const child = spawn('npx', ['vitest', 'run', '--config', 'vitest.e2e.config.mts', ...MATRIX_E2E_FILES], {
			cwd: REPO_ROOT,
			stdio: 'inherit',
			env: { ...process.env, JOB_SIGNALS_N8N_VERSION: version },
		});
		child.on('error', reject);
		child.on('exit', (code) => resolve(code));
	});
}

const versions = Object.keys(N8N_VERSIONS).filter((version) => version !== DEFAULT_N8N_VERSION);
const results: string[] = [];
let failed = false;
for (const version of versions) {
	console.log(`\n=== n8n ${version}: ${MATRIX_E2E_FILES.join(', ')}`);
	const started = Date.now();
	const code = await runVitest(version);
	failed ||= code !== 0;
	results.push(`n8n ${version}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${Math.round((Date.now() - started) / 1000)} s`);
}
console.log(`\n${results.join('\n')}`);
process.exit(failed ? 1 : 0);
