/** The builds a comparing benchmark runs, from its arguments: `NAME=DIST` each (a label, and a mock's dist folder). */
import { resolve } from 'node:path';

export interface Build {
	name: string;
	dist: string;
}

/** One `NAME=DIST` argument. */
export function buildFromArg(arg: string): Build {
	const at = arg.indexOf('=');
	if (at < 1) throw new Error(`expected NAME=DIST, got "${arg}"`);
	return { name: arg.slice(0, at), dist: resolve(arg.slice(at + 1)) };
}

export function buildsFromArgs(script: string): Build[] {
	const builds = process.argv.slice(2).map(buildFromArg);
	if (builds.length === 0) throw new Error(`usage: node ${script} NAME=DIST [NAME=DIST ...]`);
	return builds;
}
