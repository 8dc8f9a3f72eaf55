/**
 * `npm run test:e2e` on a machine without redis-server, postgresql, chromium, podman, runc or debootstrap names exactly the missing
 * packages and the one command that installs them: the message, on folders made to lack each, and the
 * e2e configuration's global setup, which throws it before anything starts.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_PACKAGES, missingPackagesMessage, type Lookup } from '../../harness/n8n/system-packages.mts';
import { REPO_ROOT } from '../../harness/n8n/config.mts';
import e2eConfig from '../../vitest.e2e.config.mts';

const dir = mkdtempSync(join(tmpdir(), 'job-signals-packages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(path: string): string {
	mkdirSync(join(path, '..'), { recursive: true });
	writeFileSync(path, '#!/bin/sh\n');
	chmodSync(path, 0o755);
	return path;
}

const COMMANDS = ['redis-server', 'redis-cli', 'podman', 'runc', 'debootstrap'];
/** A PATH folder with every command the packages give but `missing`. */
function binWithout(missing: string): string {
	const bin = join(dir, `bin-without-${missing}`);
	for (const command of COMMANDS) if (command !== missing) file(join(bin, command));
	return bin;
}
const bin = binWithout('nothing');
file(join(dir, 'postgresql', '15', 'bin', 'initdb'));
const everything: Lookup = { path: `/nonexistent:${bin}`, postgresRoot: join(dir, 'postgresql'), chromium: file(join(dir, 'chromium')) };
const nothing: Lookup = { path: join(dir, 'empty'), postgresRoot: join(dir, 'no-postgresql'), chromium: join(dir, 'no-chromium') };

describe('the Debian packages the e2e tests need', () => {
	it('says nothing when all are there', () => {
		expect(missingPackagesMessage(E2E_PACKAGES, everything, true)).toBeUndefined();
	});

	it('names each missing package and the one command that installs them', () => {
		expect(missingPackagesMessage(E2E_PACKAGES, nothing, true)).toBe(
			[
				'Missing Debian packages for the end-to-end tests: redis-server (needs redis-server and redis-cli on PATH), postgresql (needs initdb under /usr/lib/postgresql/<version>/bin), chromium (needs /usr/bin/chromium), podman (needs podman on PATH), runc (needs runc on PATH), debootstrap (needs debootstrap on PATH).',
				'Install with:',
				'  apt-get update && apt-get install -y --no-install-recommends redis-server postgresql chromium podman runc debootstrap',
			].join('\n'),
		);
	});

	it.each([
		['redis-server', { path: binWithout('redis-server') }],
		['redis-server', { path: binWithout('redis-cli') }],
		['postgresql', { postgresRoot: nothing.postgresRoot }],
		['chromium', { chromium: nothing.chromium }],
		['podman', { path: binWithout('podman') }],
		['runc', { path: binWithout('runc') }],
		['debootstrap', { path: binWithout('debootstrap') }],
	] as const)('names %s alone when only it is missing', (name, without) => {
		const message = missingPackagesMessage(E2E_PACKAGES, { ...everything, ...without }, true)!;
		expect(message).toContain(`Missing Debian package for the end-to-end tests: ${name} (`);
		expect(message).toContain(`apt-get install -y --no-install-recommends ${name}\n`.trimEnd());
		expect(message.split('\n').at(-1)).toBe(`  apt-get update && apt-get install -y --no-install-recommends ${name}`);
	});

	it('prefixes sudo when not root', () => {
		expect(missingPackagesMessage(['chromium'], nothing, false)!.split('\n').at(-1)).toBe('  sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium');
	});

	it('queue mode checks only what it runs', () => {
		expect(missingPackagesMessage(['redis-server', 'postgresql'], { ...everything, chromium: nothing.chromium }, true)).toBeUndefined();
	});

	it('npm run test:e2e checks them all before any test starts (its global setup)', () => {
		// First of all: the package is packed (the second setup) only once the packages are known to be there.
		expect(e2eConfig.test?.globalSetup?.[0]).toBe('test/e2e/system-packages.setup.mts');
	});

	it('a real `vitest --config vitest.e2e.config.mts` on a PATH without redis-server stops at once with the message, not an ENOENT stack', () => {
		const path = join(dir, 'path-without-redis');
		mkdirSync(path);
		symlinkSync(process.execPath, join(path, 'node'));
		const run = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.e2e.config.mts'], {
			cwd: REPO_ROOT,
			env: { ...process.env, PATH: path },
			encoding: 'utf8',
			timeout: 60_000,
		});
		const output = run.stdout + run.stderr;
		expect(run.status, output).toBe(1);
		expect(output).toContain('redis-server (needs redis-server and redis-cli on PATH)');
		expect(output).toMatch(/Install with:\n {2}(sudo )?apt-get update && (sudo )?apt-get install -y --no-install-recommends (\S+ )*redis-server/);
		expect(output).not.toContain('ENOENT');
		expect(output).not.toContain('did not start');
	});
});
