/**
 * `npm publish` outside the release flow is refused with what to do instead: scripts/release-guard.mjs,
 * both packages' prepublishOnly, run as npm runs it (npm_package_json names the package).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../harness/n8n/config.mts';

const dir = mkdtempSync(join(tmpdir(), 'job-signals-guard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rootManifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string; repository: { url: string } };
const releaseEnv = { GITHUB_ACTIONS: 'true', RELEASE_MODE: 'true', npm_config_provenance: 'true', GITHUB_REPOSITORY: 'acme/n8n-nodes-job-signals', GITHUB_REF_NAME: `v${rootManifest.version}` };

function guard(env: Record<string, string>, manifest: object = rootManifest): { status: number | null; output: string } {
	const path = join(dir, `package-${Math.random().toString(36).slice(2)}.json`);
	writeFileSync(path, JSON.stringify(manifest));
	const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(GITHUB_|RELEASE_MODE|npm_config_provenance|NPM_CONFIG_PROVENANCE)/.test(key)));
	const result = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/release-guard.mjs')], { env: { ...clean, ...env, npm_package_json: path }, encoding: 'utf8' });
	return { status: result.status, output: result.stdout + result.stderr };
}

describe('the release guard (prepublishOnly)', () => {
	it('refuses a publish from a laptop, naming the release flow', () => {
		const { status, output } = guard({});
		expect(status).toBe(1);
		expect(output).toContain('npm publish is refused here: n8n-nodes-job-signals is published only by .github/workflows/publish.yml');
		expect(output).toContain('git tag v<version> && git push origin v<version>');
	});

	it('refuses RELEASE_MODE alone outside GitHub Actions', () => {
		expect(guard({ RELEASE_MODE: 'true' }).status).toBe(1);
	});

	it('refuses a publish without provenance', () => {
		const { status, output } = guard({ ...releaseEnv, npm_config_provenance: '' });
		expect(status).toBe(1);
		expect(output).toContain('needs --provenance');
	});

	it('refuses while the repository URL is the placeholder, saying what to set', () => {
		const { status, output } = guard(releaseEnv);
		expect(status).toBe(1);
		expect(output).toContain(`repository.url is ${JSON.stringify(rootManifest.repository.url)}`);
		expect(output).toContain('set "repository": {"type": "git", "url": "git+https://github.com/acme/n8n-nodes-job-signals.git"} in the root package.json');
	});

	it('refuses a tag that is not the package version', () => {
		const manifest = { ...rootManifest, repository: { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-job-signals.git' } };
		const { status, output } = guard({ ...releaseEnv, GITHUB_REF_NAME: 'v9.9.9' }, manifest);
		expect(status).toBe(1);
		expect(output).toContain(`the tag v9.9.9 is not v${rootManifest.version}`);
	});

	it('lets the release flow through: GitHub Actions, provenance, the real repository, the version\'s tag', () => {
		const manifest = { ...rootManifest, repository: { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-job-signals.git' } };
		const { status, output } = guard(releaseEnv, manifest);
		expect(output).toContain(`release guard: n8n-nodes-job-signals@${rootManifest.version}`);
		expect(status).toBe(0);
	});

	it('is the prepublishOnly of both packages, before n8n-node prerelease', () => {
		const mock = JSON.parse(readFileSync(join(REPO_ROOT, 'mock-server/package.json'), 'utf8')) as { scripts: Record<string, string> };
		const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
		expect(root.scripts.prepublishOnly).toBe('node scripts/release-guard.mjs && n8n-node prerelease');
		expect(mock.scripts.prepublishOnly).toBe('node ../scripts/release-guard.mjs');
	});
});
