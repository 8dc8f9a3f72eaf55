#!/usr/bin/env node
/**
 * `job-signals-mock`: on a Node too old for the mock, one line naming the Node needed and the one
 * running, and exit 1, before anything else loads (importing node-version.mts throws it); else
 * the CLI itself (cli-main.mts), or its `record` or `check-drift` subcommand (clone/command.mts,
 * clone/check-drift.mts).
 */
try {
	await import('./base/node-version.mts');
} catch (error) {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
}
// `job-signals-mock record …` clones an account into a --data file, `check-drift …` checks a service's answers
// against the contract; anything else starts the mock.
if (process.argv[2] === 'record') await import('./clone/command.mts');
else if (process.argv[2] === 'check-drift') await import('./clone/check-drift.mts');
else await import('./cli-main.mts');
