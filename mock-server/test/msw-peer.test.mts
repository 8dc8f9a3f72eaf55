// msw is a peer dependency: the tester's project provides it (npm 7+ and pnpm 8+ install it with the mock when the
// project has none), so the mock and the project's tests share one msw, and vitest's own wants nothing else.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

interface Manifest {
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	peerDependenciesMeta?: Record<string, { optional?: boolean }>;
	devDependencies?: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Manifest;

interface Tree {
	version?: string;
	invalid?: string;
	missing?: boolean;
	problems?: string[];
	dependencies?: Record<string, Tree>;
}

/** Every msw in the installed tree, by who wants it, with what npm says is wrong with it. */
function msws(tree: Tree, by = '', found: (Tree & { by: string })[] = []): (Tree & { by: string })[] {
	for (const [name, child] of Object.entries(tree.dependencies ?? {})) {
		if (name === 'msw') found.push({ ...child, by });
		msws(child, name, found);
	}
	return found;
}

describe('msw', () => {
	it('is a peer dependency, not optional (the CLI needs it), in the two majors verified; the workspace pins one of them', () => {
		expect(manifest.dependencies?.msw).toBeUndefined();
		expect(manifest.peerDependencies?.msw).toBe('^2.15.0 || ^3.0.5');
		expect(manifest.peerDependenciesMeta?.msw?.optional).not.toBe(true);
		expect(manifest.devDependencies?.msw).toMatch(/^3\.\d+\.\d+$/);
	});

	it('is installed once in the workspace, valid for every package that wants it (vitest\'s mocker included)', async () => {
		const { stdout } = await promisify(execFile)('npm', ['ls', 'msw', '--all', '--json', '--include-workspace-root'], { cwd: new URL('..', import.meta.url) }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '{}' }));
		const tree = JSON.parse(stdout) as Tree;
		expect(tree.problems).toBeUndefined();
		const found = msws(tree);
		expect(found.map((m) => m.by).sort()).toEqual(['@vitest/mocker', 'job-signals-mock-server']);
		expect(found.filter((m) => m.invalid !== undefined || m.missing === true)).toEqual([]);
		expect(new Set(found.map((m) => m.version))).toEqual(new Set([manifest.devDependencies?.msw]));
	});
});
