/**
 * Each e2e file's n8n boots (CLI commands and process starts, counted by harness/n8n/local-n8n.mts), printed when the
 * file ends: the count a change to the harness or a file's set-up is judged by, whatever the machine's load. A file
 * that joined the run's shared n8n says so; that n8n's boots are printed once, when the run ends (shared-n8n.setup.mts).
 */
import { relative } from 'node:path';
import { afterAll, expect } from 'vitest';
import { n8nBoots } from '../../harness/n8n/local-n8n.mts';
import { joinedSharedN8n } from '../../harness/n8n/shared-n8n.mts';

afterAll(() => {
	const { total, by } = n8nBoots();
	const shared = joinedSharedN8n() ? ', and it joined the shared n8n' : '';
	console.log(`[boots] ${relative(process.cwd(), expect.getState().testPath ?? '?')}: ${total} n8n boots ${JSON.stringify(by)}${shared}`);
});
