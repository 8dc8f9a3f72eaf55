/**
 * vitest's global setup for the end-to-end tests: the built package packed once for the run, its path given to every
 * test file's n8n through PACKED_TARBALL_ENV (harness/n8n/local-n8n.mts); each file still installs it into its own user folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKED_TARBALL_ENV, packPackage } from '../../harness/n8n/local-n8n.mts';

export default function packOnce(): (() => void) | undefined {
	// Already packed by the caller for several vitest runs (harness/n8n/version-matrix.mts): that tarball, left to it.
	if (process.env[PACKED_TARBALL_ENV]) return undefined;
	const destination = mkdtempSync(join(tmpdir(), 'job-signals-e2e-pack-'));
	process.env[PACKED_TARBALL_ENV] = packPackage(destination);
	return () => rmSync(destination, { recursive: true, force: true });
}
