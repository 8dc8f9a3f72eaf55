/**
 * The oldest Node the mock runs on, checked before anything else loads: importing this module on
 * an older Node throws one clear error naming the Node needed and the one running, before msw or
 * node:sqlite fail in their own words. The package's entry (index.mts) imports it first, and tsup
 * builds it as an entry of its own, so it runs before any other module; the CLI (cli.mts) imports
 * it before the rest and prints that error as one line. No imports: it must run on any Node.
 *
 * Measured (each with `npm exec --package=node@X -- node …`): the in-process handlers work from
 * 22.0.0 (on 20.x msw's interceptors call Promise.withResolvers, which Node 20 lacks); --state-dir
 * needs `node:sqlite` importable without a flag, which it is from 22.13.0 on 22.x and from 23.4.0
 * on 23.x (22.12.0 and 23.3.0 answer "No such built-in module: node:sqlite"). Keep in step with
 * package.json's "engines".
 */
export const NODE_REQUIRED = '22.13.0';
/** 23.0.0–23.3.0 came after 22.13.0 in number but before it in features: node:sqlite arrived unflagged in 23.4.0. */
const NODE_23_REQUIRED = '23.4.0';

const parse = (version: string) => version.replace(/^v/, '').split('.').map((part) => Number.parseInt(part, 10) || 0);

function atLeast(version: string, wanted: string): boolean {
	const have = parse(version);
	const need = parse(wanted);
	for (let i = 0; i < 3; i++) {
		if ((have[i] ?? 0) !== need[i]) return (have[i] ?? 0) > need[i];
	}
	return true;
}

/** The one line to stop with when `version` (default: this process's) is too old, else undefined. */
export function nodeVersionProblem(version: string = process.versions.node): string | undefined {
	const major = parse(version)[0];
	const supported = major === 23 ? atLeast(version, NODE_23_REQUIRED) : atLeast(version, NODE_REQUIRED);
	if (supported) return undefined;
	const needed = major === 23 ? `${NODE_REQUIRED} or later (on Node 23: ${NODE_23_REQUIRED} or later)` : `${NODE_REQUIRED} or later`;
	return `job-signals-mock-server needs Node ${needed}; this is Node ${version.replace(/^v/, '')}`;
}

const problem = nodeVersionProblem();
if (problem !== undefined) throw new Error(problem);
