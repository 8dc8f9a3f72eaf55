/**
 * vitest's global setup for the end-to-end tests: the built package packed once for the run (packOnce), its path given
 * to every test file's n8n through PACKED_TARBALL_ENV (harness/n8n/local-n8n.mts); each file still installs it into its
 * own user folder. A tarball the caller packed for several vitest runs (harness/n8n/version-matrix.mts) is used as it is.
 */
import { packOnce } from '../../harness/n8n/local-n8n.mts';

export default function setup(): () => void {
	return packOnce();
}
