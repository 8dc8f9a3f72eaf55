/**
 * vitest's global setup for the end-to-end tests: the server of the run's shared n8n (harness/n8n/shared-n8n.mts),
 * its address given to every test file through SHARED_N8N_ENV. n8n itself starts when the first file joins; the
 * teardown stops it and prints its `[boots]` line.
 */
import { serveSharedN8n, SHARED_N8N_ENV } from '../../harness/n8n/shared-n8n.mts';

export default async function setup(): Promise<() => Promise<void>> {
	const shared = await serveSharedN8n();
	process.env[SHARED_N8N_ENV] = shared.url;
	return async () => {
		delete process.env[SHARED_N8N_ENV];
		await shared.close();
	};
}
