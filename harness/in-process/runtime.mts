/**
 * The CommonJS copies of n8n-workflow and n8n-core, the ones n8n-core and the
 * loaded node packages use. n8n-workflow ships separate ESM and CJS builds; an
 * `import` from a vitest file gets the ESM one, whose classes are different
 * objects (instanceof fails across them, and its global state, such as the
 * expression evaluator, is separate). Everything the harness hands to the
 * engine comes from here.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// n8n-core's InstanceSettings writes a config file under the user folder on first use: keep it in a temp dir.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-harness-'));
// n8n-core logs every node error it reports (with its stack) to the console; runs return the error instead.
process.env.N8N_LOG_LEVEL ??= 'silent';

/** Resolved from the repository root (tests and the benchmark both run from there). */
export const requireFromRoot = createRequire(resolve('package.json'));

export const workflowRuntime = requireFromRoot('n8n-workflow') as typeof import('n8n-workflow');
export const coreRuntime = requireFromRoot('n8n-core') as typeof import('n8n-core');

/** The repository root: our package, loaded from its built dist/ as n8n would load it. */
export const PACKAGE_ROOT = resolve('.');
export const NODES_BASE_ROOT = resolve('node_modules/n8n-nodes-base');
