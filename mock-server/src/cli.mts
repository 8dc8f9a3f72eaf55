#!/usr/bin/env node
/**
 * `job-signals-mock`: on a Node too old for the mock, one line naming the Node needed and the one
 * running, and exit 1, before anything else loads (importing node-version.mts throws it); else
 * the CLI itself (cli-main.mts).
 */
try {
	await import('./node-version.mts');
} catch (error) {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
}
await import('./cli-main.mts');
