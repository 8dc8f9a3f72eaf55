/**
 * The e2e files that cover the three nodes (the action node's resources, the
 * webhook trigger in regular mode, the poll trigger) and the node as an AI agent's tool, run on every tested n8n
 * version but the default one, which `npm run test:e2e` already runs them on.
 * One vitest run per version, with JOB_SIGNALS_N8N_VERSION set (each version
 * has its own cache folder, installed on first use). The versions run side by side, each its files one at a time
 * (`--maxWorkers=1`): two files at once, mostly waiting on n8n (none of the cases that time an answer or kill a process
 * runs on a version other than the default). Each line of a run's output is prefixed with its version; one line
 * per version at the end, with its time; exits 1 when any version failed.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
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
		const child = spawn('npx', ['vitest', 'run', '--config', 'vitest.e2e.config.mts', '--maxWorkers=1', ...MATRIX_E2E_FILES], {
			cwd: REPO_ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, JOB_SIGNALS_N8N_VERSION: version },
		});
		for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]] as const) {
			createInterface({ input: stream }).on('line', (line) => out.write(`[n8n ${version}] ${line}\n`));
		}
		child.on('error', reject);
		child.on('close', (code) => resolve(code));
	});
}

const versions = Object.keys(N8N_VERSIONS).filter((version) => version !== DEFAULT_N8N_VERSION);
console.log(`=== n8n ${versions.join(' and ')}, side by side: ${MATRIX_E2E_FILES.join(', ')}`);
const results = await Promise.all(
	versions.map(async (version) => {
		const started = Date.now();
		const code = await runVitest(version);
		return { code, line: `n8n ${version}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${Math.round((Date.now() - started) / 1000)} s` };
	}),
);
console.log(`\n${results.map((r) => r.line).join('\n')}`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
