#!/usr/bin/env node
/**
 * `job-signals-mock`: on a Node too old for the mock, one line naming the Node needed and the one
 * running, and exit 1, before anything else loads; else the CLI itself (cli-main.mts).
 */
import { nodeVersionProblem } from './node-version.mts';

const problem = nodeVersionProblem();
if (problem === undefined) {
	await import('./cli-main.mts');
} else {
	console.error(problem);
	process.exit(1);
}
