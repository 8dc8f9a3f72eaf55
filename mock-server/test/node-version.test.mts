// The Node the mock needs: package.json's "engines" says the same as the check, and on an older Node the built CLI and the package's entry stop at once with one line naming both versions.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NODE_REQUIRED, nodeVersionProblem } from '../src/base/node-version.mts';
import { CLI } from './cli-process.mts';

const ENTRY = join(__dirname, '../../mock-server/dist/index.js');
const PACKAGE = JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')) as { engines: { node: string } };

/** A `node` on PATH older than 22 (the system Node 20 here), or undefined when there is none. */
function oldNode(): { path: string; version: string } | undefined {
	for (const dir of (process.env.PATH ?? '').split(delimiter).concat('/usr/bin', '/usr/local/bin')) {
		const path = join(dir, 'node');
		if (!existsSync(path)) continue;
		try {
			const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
			if (Number(version.split('.')[0]) < 22) return { path, version };
		} catch {
			// Not runnable: look further.
		}
	}
	return undefined;
}
const old = oldNode();

beforeAll(() => {
	if (!existsSync(CLI) || !existsSync(ENTRY)) throw new Error('mock-server/dist is missing: run `npm run build -w mock-server` first (npm test does)');
});

describe('the Node version the mock needs', () => {
	it('is the one package.json\'s "engines" names: 22.13.0 on 22.x (node:sqlite unflagged), 23.4.0 on 23.x', () => {
		expect(PACKAGE.engines.node).toBe(`^${NODE_REQUIRED} || >=23.4.0`);
		for (const version of ['22.13.0', '22.20.1', '23.4.0', '24.9.0', '26.0.0', process.versions.node]) expect(nodeVersionProblem(version), version).toBeUndefined();
		expect(nodeVersionProblem('20.20.2')).toBe('job-signals-mock-server needs Node 22.13.0 or later; this is Node 20.20.2');
		expect(nodeVersionProblem('v22.12.0')).toBe('job-signals-mock-server needs Node 22.13.0 or later; this is Node 22.12.0');
		expect(nodeVersionProblem('18.0.0')).toMatch(/needs Node 22\.13\.0 or later; this is Node 18\.0\.0$/);
		expect(nodeVersionProblem('23.3.0')).toBe('job-signals-mock-server needs Node 22.13.0 or later (on Node 23: 23.4.0 or later); this is Node 23.3.0');
	});

	it.skipIf(old === undefined)('on an older Node the built CLI prints one line naming both versions and exits 1, before anything else runs', () => {
		const run = spawnSync(old!.path, [CLI, '--port', '0'], { encoding: 'utf8', timeout: 20_000 });
		expect(run.status).toBe(1);
		expect(run.stdout).toBe('');
		expect(run.stderr).toBe(`job-signals-mock-server needs Node 22.13.0 or later; this is Node ${old!.version}\n`);
	});

	it.skipIf(old === undefined)('on an older Node importing the package throws that message, before msw or node:sqlite fail in their own words', () => {
		const script = `import(${JSON.stringify(ENTRY)}).then(() => console.log('imported'), (error) => console.log('threw: ' + error.message))`;
		const run = spawnSync(old!.path, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
		expect(run.stderr).toBe('');
		expect(run.stdout).toBe(`threw: job-signals-mock-server needs Node 22.13.0 or later; this is Node ${old!.version}\n`);
	});
});
