/**
 * The Debian packages the end-to-end tests run: Redis and Postgres for queue mode, Chromium for the
 * editor, podman with runc (and debootstrap for its local Node base image) for the mock's container
 * image. Checked before anything starts, so a machine without them hears which are missing and the
 * one command that installs them, not a start-up failure or an ENOENT stack.
 */
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Debian's Chromium; playwright-core downloads no browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const POSTGRES_ROOT = '/usr/lib/postgresql';

export type DebianPackage = 'redis-server' | 'postgresql' | 'chromium' | 'podman' | 'runc' | 'debootstrap';

/** Where each package is looked for; the tests point these at folders of their own. */
export interface Lookup {
	path: string;
	postgresRoot: string;
	chromium: string;
}

const onPath = (lookup: Lookup, command: string) => lookup.path.split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));

/** The newest installed Postgres's bin folder holding `initdb`, if any. */
export function postgresBinDir(root = POSTGRES_ROOT): string | undefined {
	const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
	return versions.map((version) => join(root, version, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
}

const FOUND: Record<DebianPackage, { needs: string; found: (lookup: Lookup) => boolean }> = {
	'redis-server': { needs: 'redis-server and redis-cli on PATH', found: (lookup) => onPath(lookup, 'redis-server') && onPath(lookup, 'redis-cli') },
	postgresql: { needs: 'initdb under /usr/lib/postgresql/<version>/bin', found: (lookup) => postgresBinDir(lookup.postgresRoot) !== undefined },
	chromium: { needs: CHROMIUM, found: (lookup) => existsSync(lookup.chromium) },
	podman: { needs: 'podman on PATH', found: (lookup) => onPath(lookup, 'podman') },
	runc: { needs: 'runc on PATH', found: (lookup) => onPath(lookup, 'runc') },
	debootstrap: { needs: 'debootstrap on PATH', found: (lookup) => onPath(lookup, 'debootstrap') },
};

export const E2E_PACKAGES: DebianPackage[] = ['redis-server', 'postgresql', 'chromium', 'podman', 'runc', 'debootstrap'];

/** Undefined when every package is there; else which are missing and the command that installs them. */
export function missingPackagesMessage(
	packages: DebianPackage[],
	lookup: Lookup = { path: process.env.PATH ?? '', postgresRoot: POSTGRES_ROOT, chromium: CHROMIUM },
	isRoot = process.getuid?.() === 0,
): string | undefined {
	const missing = packages.filter((name) => !FOUND[name].found(lookup));
	if (missing.length === 0) return undefined;
	const sudo = isRoot ? '' : 'sudo ';
	return [
		`Missing Debian package${missing.length > 1 ? 's' : ''} for the end-to-end tests: ${missing.map((name) => `${name} (needs ${FOUND[name].needs})`).join(', ')}.`,
		'Install with:',
		`  ${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${missing.join(' ')}`,
	].join('\n');
}

/** Throws the message above when a package is missing. */
export function requireDebianPackages(packages: DebianPackage[]): void {
	const message = missingPackagesMessage(packages);
	if (message) throw new Error(message);
}
