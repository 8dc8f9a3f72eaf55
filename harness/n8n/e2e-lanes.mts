/**
 * `.ci/run`'s e2e part: every e2e file on the default n8n (what `npm run test:e2e` runs) and MATRIX_E2E_FILES on every
 * other tested version (what `npm run test:e2e:versions` runs), in two lanes side by side, each a series of vitest runs:
 *
 * - timed, at normal priority: the files outside PAIRED (vitest.e2e.config.mts), one at a time as in `npm run test:e2e`
 *   (they time an answer or keep both cores busy), then the matrix's such files, the versions side by side as in the
 *   version matrix;
 * - untimed, at a lower CPU priority (`nice -n 10`): the PAIRED files two at a time, then the matrix's PAIRED files,
 *   one version after the other. None of them times an answer, so they may wait for CPU: they take mostly what the
 *   timed lane leaves (a whole `.ci/run` used 57 % of two cores), and a timed file keeps about nine tenths of a core it
 *   contends for (Linux weighs a nice 10 process 110 against a nice 0 one's 1024). Not 19 (weight 15): on a machine
 *   at load 20, `n8n import:credentials` at nice 19 outlasted the harness's 180 s limit for an n8n command.
 *
 * The package is packed once for every run (PACKED_TARBALL_ENV). Each line a run prints is prefixed with its lane and
 * version; a line per run at the end, with its time; exits 1 when any run failed. Arguments, if any, keep only the
 * files whose path contains one of them (`npx node harness/n8n/e2e-lanes.mts ai-agent dev-loop`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PAIRED } from '../../vitest.e2e.config.mts';
import { DEFAULT_N8N_VERSION, MATRIX_E2E_FILES, N8N_VERSIONS, REPO_ROOT } from './config.mts';
import { PACKED_TARBALL_ENV, packPackage } from './local-n8n.mts';

interface Run {
	lane: 'timed' | 'untimed';
	version: string;
	files: string[];
}

const filters = process.argv.slice(2);
const kept = (files: string[]) => files.filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)));
const allFiles = readdirSync(join(REPO_ROOT, 'test', 'e2e'))
	.filter((name) => name.endsWith('.e2e.test.mts'))
	.map((name) => `test/e2e/${name}`);
const otherVersions = Object.keys(N8N_VERSIONS).filter((version) => version !== DEFAULT_N8N_VERSION);

/** One vitest run; the untimed lane's under `nice -n 10`. Resolves with whether it passed and its summary line. */
function runVitest(run: Run): Promise<{ passed: boolean; line: string }> {
	const label = `${run.lane} n8n ${run.version}`;
	const vitest = ['npx', 'vitest', 'run', '--config', 'vitest.e2e.config.mts', ...run.files];
	const [command, ...args] = run.lane === 'untimed' ? ['nice', '-n', '10', ...vitest] : vitest;
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, JOB_SIGNALS_N8N_VERSION: run.version } });
		for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => console.log(`[${label}] ${line}`));
		child.on('error', reject);
		child.on('close', (code, signal) => {
			const seconds = Math.round((Date.now() - started) / 1000);
			const outcome = code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
			resolve({ passed: code === 0, line: `${label}: ${outcome} in ${seconds} s (${run.files.length} files)` });
		});
	});
}

/** A lane's steps one after another; the runs of a step side by side. A step with no file left (filters) is skipped. */
async function lane(steps: Run[][]) {
	const results: { passed: boolean; line: string }[] = [];
	for (const step of steps) results.push(...(await Promise.all(step.filter((run) => run.files.length > 0).map(runVitest))));
	return results;
}

const timedSteps: Run[][] = [
	[{ lane: 'timed', version: DEFAULT_N8N_VERSION, files: kept(allFiles.filter((file) => !PAIRED.includes(file))) }],
	otherVersions.map((version) => ({ lane: 'timed', version, files: kept(MATRIX_E2E_FILES.filter((file) => !PAIRED.includes(file))) })),
];
const untimedSteps: Run[][] = [
	[{ lane: 'untimed', version: DEFAULT_N8N_VERSION, files: kept(PAIRED) }],
	...otherVersions.map((version): Run[] => [{ lane: 'untimed', version, files: kept(MATRIX_E2E_FILES.filter((file) => PAIRED.includes(file))) }]),
];

const packDir = mkdtempSync(join(tmpdir(), 'job-signals-e2e-lanes-'));
let results: { passed: boolean; line: string }[];
try {
	process.env[PACKED_TARBALL_ENV] = packPackage(packDir);
	results = (await Promise.all([lane(timedSteps), lane(untimedSteps)])).flat();
} finally {
	rmSync(packDir, { recursive: true, force: true });
}
console.log(`\n${results.map((result) => result.line).join('\n')}`);
process.exit(results.every((result) => result.passed) ? 0 : 1);
