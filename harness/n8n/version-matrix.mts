/**
 * `npm run test:e2e:versions`: MATRIX_E2E_FILES (config.mts) on every tested n8n version but the default one, which
 * `npm run test:e2e` already runs them on.
 * One vitest run per version, with JOB_SIGNALS_N8N_VERSION set (each version
 * has its own cache folder, installed on first use), the versions side by side: a run mostly waits (on poll times,
 * the service's retries, n8n's starts on one core each), so two fit on two cores. Each line a run prints is prefixed
 * with its version; one line per version at the end, with its time; exits 1 when any version failed. The package is
 * packed once for both runs (packOnce in local-n8n.mts); in each run, the files that can share one n8n of its version
 * (harness/n8n/shared-n8n.mts), as in the e2e run.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { DEFAULT_N8N_VERSION, MATRIX_E2E_FILES, N8N_VERSIONS, REPO_ROOT } from './config.mts';
import { packOnce } from './local-n8n.mts';

/** One version's vitest run; resolves with its summary line. */
function runVitest(version: string): Promise<{ passed: boolean; line: string }> {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn('npx', ['vitest', 'run', '--config', 'vitest.e2e.config.mts', ...MATRIX_E2E_FILES], {
			cwd: REPO_ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, JOB_SIGNALS_N8N_VERSION: version },
		});
		for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => console.log(`[n8n ${version}] ${line}`));
		child.on('error', reject);
		child.on('close', (code, signal) => {
			const seconds = Math.round((Date.now() - started) / 1000);
			resolve({ passed: code === 0, line: `n8n ${version}: ${code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s` });
		});
	});
}

const versions = Object.keys(N8N_VERSIONS).filter((version) => version !== DEFAULT_N8N_VERSION);
console.log(`=== n8n ${versions.join(' and ')}, side by side: ${MATRIX_E2E_FILES.join(', ')}`);
const unpack = packOnce();
let results: { passed: boolean; line: string }[];
try {
	results = await Promise.all(versions.map(runVitest));
} finally {
	unpack();
}
console.log(`\n${results.map((result) => result.line).join('\n')}`);
process.exit(results.every((result) => result.passed) ? 0 : 1);
