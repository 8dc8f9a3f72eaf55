/**
 * vitest's global setup for the end-to-end tests: before any n8n, mock or browser starts, the Debian
 * packages they run must be there; else the run stops with one message naming the missing ones and
 * the install command (exit 1, no stack trace to read past).
 */
import { E2E_PACKAGES, missingPackagesMessage } from '../../harness/n8n/system-packages.mts';

export default function checkDebianPackages(): void {
	const message = missingPackagesMessage(E2E_PACKAGES);
	if (message) {
		console.error(`\n${message}\n`);
		process.exit(1);
	}
}
