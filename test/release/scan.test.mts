/**
 * n8n's community scanner (@n8n/scan-community-package, what `npm run scan` runs on the packed tarball)
 * reads the compiled dist/ JavaScript, not only package.json: it passes the built package as n8n-node
 * build makes it, and fails the same files with one forbidden import or console call planted in a node's
 * compiled file. Needs `npm run build` first (npm test builds before it runs vitest).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../harness/n8n/config.mts';

const folders: string[] = [];
afterAll(() => {
	for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The package as the tarball holds it (package.json and dist/), with `plant` appended to the action node's compiled file. */
function packageCopy(plant = ''): string {
	const folder = mkdtempSync(join(tmpdir(), 'job-signals-scan-test-'));
	folders.push(folder);
	cpSync(join(REPO_ROOT, 'package.json'), join(folder, 'package.json'));
	for (const part of ['nodes', 'credentials', 'contract']) cpSync(join(REPO_ROOT, 'dist', part), join(folder, 'dist', part), { recursive: true });
	if (plant) appendFileSync(join(folder, 'dist/nodes/JobSignals/JobSignals.node.js'), `\n${plant}\n`);
	return folder;
}

const PLANTS = {
	'a runtime import n8n Cloud forbids': "require('node:child_process');",
	'a console call': "console.log('planted');",
};

/**
 * n8n's scanner over each folder, in one child process (the scanner is plain JavaScript without types): its start
 * (eslint and n8n's rules) is most of a scan's time, so the folders share it.
 */
function scan(folders: string[]): { passed: boolean; details?: string }[] {
	const script =
		"import { analyzePackage } from '@n8n/scan-community-package/scanner/scanner.mjs'; const results = []; for (const folder of process.argv.slice(1)) results.push(await analyzePackage(folder)); console.log(JSON.stringify(results));";
	const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, ...folders], { cwd: REPO_ROOT, encoding: 'utf8' });
	expect(run.status, run.stderr).toBe(0);
	return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { passed: boolean; details?: string }[];
}

/** The package as built, then with each plant: scanned once for the file's cases. */
let results: { built: { passed: boolean; details?: string }; planted: Record<string, { passed: boolean; details?: string }> };
beforeAll(() => {
	const names = Object.keys(PLANTS) as (keyof typeof PLANTS)[];
	const [built, ...planted] = scan([packageCopy(), ...names.map((name) => packageCopy(PLANTS[name]))]);
	results = { built, planted: Object.fromEntries(names.map((name, i) => [name, planted[i]])) };
}, 60_000);

describe("n8n's community scanner on the built package", () => {
	it('passes the per-file build', () => {
		const result = results.built;
		expect(result.details ?? '').toBe('');
		expect(result.passed).toBe(true);
	});

	it.each([
		['a runtime import n8n Cloud forbids', 'no-restricted-imports'],
		['a console call', 'no-console'],
	] as const)('fails %s planted in dist/nodes/JobSignals/JobSignals.node.js', (name, rule) => {
		const result = results.planted[name];
		expect(result.passed).toBe(false);
		expect(result.details).toContain('JobSignals.node.js');
		expect(result.details).toContain(rule);
	});
});
