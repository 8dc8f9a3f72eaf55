#!/usr/bin/env node
/**
 * `job-signals-mock`: on a Node too old for the mock, one line naming the Node needed and the one
 * running, and exit 1, before anything else loads (importing node-version.mts throws it); else
 * the CLI itself (cli-main.mts), or its `record` subcommand (record/command.mts).
 */
try {
	await import('./base/node-version.mts');
} catch (error) {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
}
// `job-signals-mock record …` clones an account into a --data file (record/command.mts); anything else starts the mock.
if (process.argv[2] === 'record') await import('./record/command.mts');
else await import('./cli-main.mts');
