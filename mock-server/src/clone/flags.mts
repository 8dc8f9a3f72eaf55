/** `job-signals-mock record`'s and `check-drift`'s flags (`--name value` or `--name=value`) and usage; anything unknown or invalid is an error. */
import { shownUrl, tokenRoute } from '../base/contract.mts';
import type { CheckpointMode } from './checkpoint.mts';
import { usageLines, type UsageFlag } from '../base/usage-lines.mts';

/** Where the token is read from when `--token` is not given (a command line is visible to every local user in `ps`). */
export const TOKEN_VARIABLE = 'JOB_SIGNALS_TOKEN';
/** The mock account the clone's collections belong to (generate.mts: the demo account, token demo-token-job-signals). */
export const DEFAULT_ACCOUNT = 'acc_demo';

/** The exit statuses of `record` and `check-drift`. */
export const EXIT = { done: 0, failed: 1, usage: 2, tokenRefused: 3, drifted: 4 } as const;

export interface CloneFlags {
	/** The API base URL, without a trailing slash. */
	from: string;
	token: string;
	out: string;
	account: string;
	force: boolean;
	/** What to do with a FILE.partial that holds pages (checkpoint.mts). */
	checkpoint: CheckpointMode;
	/** Where to write the drift report as JSON, if anywhere. */
	driftReport: string | undefined;
}

export interface CheckDriftFlags {
	from: string;
	token: string;
	driftReport: string | undefined;
}

export class CloneFlagError extends Error {}

/** record's flags; check-drift takes those CHECK_DRIFT_FLAGS names. The usages and the README's table are made from them. */
export const CLONE_FLAGS: readonly UsageFlag[] = [
	{ name: 'from', value: 'URL', required: true, meaning: 'the API base URL (https://<host>/v2); plain http:// only to this machine (127.0.0.1, localhost or [::1])' },
	{
		name: 'token', value: 'T', default: `$${TOKEN_VARIABLE}`,
		meaning: `the account's API token, sent in the Authorization header only; ${TOKEN_VARIABLE} keeps it out of ps`,
	},
	{ name: 'out', value: 'FILE', required: true, meaning: 'the data file to write (its folder must exist); the walk is kept in FILE.partial as it goes' },
	{ name: 'resume', default: 'off', meaning: 'continue the walk kept in FILE.partial' },
	{ name: 'restart', default: 'off', meaning: "delete FILE.partial's walk and start over" },
	{ name: 'account', value: 'ID', default: DEFAULT_ACCOUNT, meaning: "the mock account whose collections the file's are (acc_demo, acc_second or acc_volume)" },
	{ name: 'force', default: 'off', meaning: 'replace FILE if it exists (else: refused)' },
	{ name: 'drift-report', value: 'FILE', default: 'none', meaning: 'also write the drift report (every field that leaves the contract) as JSON' },
];
export const CHECK_DRIFT_FLAGS: readonly string[] = ['from', 'token', 'drift-report'];

export const CLONE_USAGE = `Usage: job-signals-mock record --from URL --token T --out FILE [--account ID] [--force]
                                [--resume | --restart] [--drift-report FILE]
  Walks an account's collections, sources, jobs and signals at its rate limit and writes
  them as a --data file; serve it with: job-signals-mock --sources 0 --data FILE. Every
  answer is checked against the contract: a report of what drifted ends the run
${usageLines(CLONE_FLAGS)}
Exit status: 0 written, 1 the walk failed (FILE.partial kept when it holds pages: --resume
  continues it), 2 bad arguments, 3 the API refused the token, 4 written, but the answers
  drift from the contract (the records that do not fit it are left out)`;

export const CHECK_DRIFT_USAGE = `Usage: job-signals-mock check-drift --from URL --token T [--drift-report FILE]
  Reads the first page of each list record walks (the collections, the first collection's
  sources, the jobs, each signal group) and reports where the answers leave the contract
${usageLines(CLONE_FLAGS.filter(({ name }) => CHECK_DRIFT_FLAGS.includes(name)))}
Exit status: 0 the answers fit the contract, 1 a call failed, 2 bad arguments,
  3 the API refused the token, 4 the answers drift from the contract`;

const CLONE_VALUED = CLONE_FLAGS.filter(({ value }) => value !== undefined).map(({ name }) => name);
const CLONE_SWITCHES = CLONE_FLAGS.filter(({ value }) => value === undefined).map(({ name }) => name);
type Given = Partial<Record<'from' | 'token' | 'out' | 'account' | 'drift-report', string>>;

/** `env` and `nodeFlags` (process.execArgv) say whether Node's fetch sends plain http through a proxy. */
export function parseCloneFlags(argv: readonly string[], env: NodeJS.ProcessEnv, nodeFlags: readonly string[] = []): CloneFlags | 'help' {
	const read = readFlags(argv, CLONE_VALUED, CLONE_SWITCHES);
	if (read === 'help') return 'help';
	const { given, switches } = read;
	if (switches.has('resume') && switches.has('restart')) throw new CloneFlagError('--resume and --restart exclude each other: --resume continues FILE.partial\'s walk, --restart deletes it');
	const { from, token } = fromAndToken(given, env, nodeFlags);
	if (given.out === undefined) throw new CloneFlagError('--out is required (the data file to write)');
	const account = given.account ?? DEFAULT_ACCOUNT;
	if (!/^[A-Za-z0-9_-]+$/.test(account)) throw new CloneFlagError(`--account must be an account id such as ${DEFAULT_ACCOUNT}, got "${account}"`);
	const checkpoint = switches.has('resume') ? 'resume' : switches.has('restart') ? 'restart' : 'refuse';
	return { from, token, out: given.out, account, force: switches.has('force'), checkpoint, driftReport: given['drift-report'] };
}

export function parseCheckDriftFlags(argv: readonly string[], env: NodeJS.ProcessEnv, nodeFlags: readonly string[] = []): CheckDriftFlags | 'help' {
	const read = readFlags(argv, CHECK_DRIFT_FLAGS, []);
	if (read === 'help') return 'help';
	const { from, token } = fromAndToken(read.given, env, nodeFlags);
	return { from, token, driftReport: read.given['drift-report'] };
}

function readFlags(argv: readonly string[], valued: readonly string[], switchNames: readonly string[]): { given: Given; switches: Set<string> } | 'help' {
	const given: Record<string, string> = {};
	const switches = new Set<string>();
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--help' || arg === '-h') return 'help';
		const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
		if (!match) throw new CloneFlagError(`Unexpected argument "${arg}"`);
		const name = match[1];
		if (switchNames.includes(name)) {
			if (match[2] !== undefined) throw new CloneFlagError(`--${name} takes no value`);
			switches.add(name);
			continue;
		}
		if (!valued.includes(name)) throw new CloneFlagError(`Unknown flag --${name}`);
		const value = match[2] ?? argv[++i];
		// The token's value is never repeated in a message.
		if (value === undefined || value === '') throw new CloneFlagError(`--${name} needs a value`);
		if (name in given) throw new CloneFlagError(`--${name} given twice`);
		given[name] = value;
	}
	return { given, switches };
}

function fromAndToken(given: Given, env: NodeJS.ProcessEnv, nodeFlags: readonly string[]): { from: string; token: string } {
	if (given.from === undefined) throw new CloneFlagError('--from is required (the API base URL, https://<host>/v2)');
	const token = given.token ?? env[TOKEN_VARIABLE];
	if (token === undefined || token === '') throw new CloneFlagError(`--token is required (or the ${TOKEN_VARIABLE} environment variable)`);
	if (/\s/.test(token)) throw new CloneFlagError('--token must not contain spaces');
	const from = baseUrl(given.from);
	const proxy = proxyInTheWay(from, env, nodeFlags);
	if (proxy !== undefined) throw new CloneFlagError(proxy);
	return { from, token };
}

/** An http(s) URL without credentials, query or fragment (it is written into FILE.partial), trailing slash dropped. */
function baseUrl(value: string): string {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new CloneFlagError(`--from must be a URL such as https://api.example.com/v2, got "${value}"`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CloneFlagError(`--from must be an http or https URL, got "${url.protocol}"`);
	if (url.username !== '' || url.password !== '') throw new CloneFlagError('--from must not hold credentials: give the token with --token');
	if (url.search !== '' || url.hash !== '') throw new CloneFlagError('--from must be the base URL only, without a query or fragment');
	// The nodes' rule (contract/token-transport.ts): the token over TLS, or over plain http to this machine only.
	const route = tokenRoute(url.href);
	if (route.route === 'plain-http') {
		throw new CloneFlagError(
			`--from ${shownUrl(value)} uses plain http:// to ${route.hostname}, which is not this machine: the token would cross the network unencrypted, so nothing was sent. Use https:// (plain http:// only to 127.0.0.1, localhost or [::1])`,
		);
	}
	return url.href.replace(/\/+$/, '');
}

/**
 * Why plain http to this machine would pass a proxy, which would read the token; undefined when it would not.
 * Node's fetch uses HTTP_PROXY only when told to (NODE_USE_ENV_PROXY=1, --use-env-proxy); NO_PROXY is not read
 * here (Node and other clients read it each their own way), so with a proxy on, plain http is refused outright.
 */
function proxyInTheWay(from: string, env: NodeJS.ProcessEnv, nodeFlags: readonly string[]): string | undefined {
	if (tokenRoute(from).route !== 'loopback') return undefined;
	const proxy = env.HTTP_PROXY || env.http_proxy;
	if (!proxy) return undefined;
	const switches = [
		...(env.NODE_USE_ENV_PROXY !== undefined && !['', '0'].includes(env.NODE_USE_ENV_PROXY) ? ['NODE_USE_ENV_PROXY'] : []),
		...([...nodeFlags, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].includes('--use-env-proxy') ? ['--use-env-proxy'] : []),
	];
	if (switches.length === 0) return undefined;
	return `--from ${from} is plain http://, and ${switches.join(' and ')} make Node send it through the proxy in HTTP_PROXY, which would read the token: run record without ${switches.join(' and ')} (this machine needs no proxy), or use https://`;
}
