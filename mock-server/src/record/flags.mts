/** `job-signals-mock record`'s flags (`--name value` or `--name=value`) and usage; anything unknown or invalid is an error. */
import { shownUrl, tokenRoute } from '../../../contract/token-transport';

/** Where the token is read from when `--token` is not given (a command line is visible to every local user in `ps`). */
export const TOKEN_VARIABLE = 'JOB_SIGNALS_TOKEN';
/** The mock account the clone's collections belong to (generate.mts: the demo account, token demo-token-job-signals). */
export const DEFAULT_ACCOUNT = 'acc_demo';

export interface RecordFlags {
	/** The API base URL, without a trailing slash. */
	from: string;
	token: string;
	out: string;
	account: string;
	force: boolean;
}

export class RecordFlagError extends Error {}

export const RECORD_USAGE = `Usage: job-signals-mock record --from URL --token T --out FILE [--account ID] [--force]
  Walks an account's collections, sources, jobs and signals at its rate limit and writes
  them as a --data file; serve it with: job-signals-mock --sources 0 --data FILE
  --from URL      the API base URL (https://<host>/v2); plain http:// only to this machine
                  (127.0.0.1, localhost or [::1])
  --token T       the account's API token (default: the ${TOKEN_VARIABLE} environment variable);
                  sent in the Authorization header only, never written to a file or printed
  --out FILE      the data file to write. The walk is kept in FILE.partial as it goes: the same
                  command run again continues from it
  --account ID    the mock account whose collections the file's are (default ${DEFAULT_ACCOUNT},
                  the demo account)
  --force         replace FILE if it exists (else: refused)
Exit status: 0 written, 1 the walk failed (FILE.partial kept: run again to continue),
  2 bad arguments, 3 the API refused the token`;

const VALUED = ['from', 'token', 'out', 'account'] as const;

/** `env` and `nodeFlags` (process.execArgv) say whether Node's fetch sends plain http through a proxy. */
export function parseRecordFlags(argv: readonly string[], env: NodeJS.ProcessEnv, nodeFlags: readonly string[] = []): RecordFlags | 'help' {
	const given: Partial<Record<(typeof VALUED)[number], string>> = {};
	let force = false;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--help' || arg === '-h') return 'help';
		const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
		if (!match) throw new RecordFlagError(`Unexpected argument "${arg}"`);
		const name = match[1];
		if (name === 'force') {
			if (match[2] !== undefined) throw new RecordFlagError('--force takes no value');
			force = true;
			continue;
		}
		if (!(VALUED as readonly string[]).includes(name)) throw new RecordFlagError(`Unknown flag --${name}`);
		const value = match[2] ?? argv[++i];
		// The token's value is never repeated in a message.
		if (value === undefined || value === '') throw new RecordFlagError(`--${name} needs a value`);
		if (name in given) throw new RecordFlagError(`--${name} given twice`);
		given[name as (typeof VALUED)[number]] = value;
	}
	if (given.from === undefined) throw new RecordFlagError('--from is required (the API base URL, https://<host>/v2)');
	if (given.out === undefined) throw new RecordFlagError('--out is required (the data file to write)');
	const token = given.token ?? env[TOKEN_VARIABLE];
	if (token === undefined || token === '') throw new RecordFlagError(`--token is required (or the ${TOKEN_VARIABLE} environment variable)`);
	if (/\s/.test(token)) throw new RecordFlagError('--token must not contain spaces');
	const account = given.account ?? DEFAULT_ACCOUNT;
	if (!/^[A-Za-z0-9_-]+$/.test(account)) throw new RecordFlagError(`--account must be an account id such as ${DEFAULT_ACCOUNT}, got "${account}"`);
	const from = baseUrl(given.from);
	const proxy = proxyInTheWay(from, env, nodeFlags);
	if (proxy !== undefined) throw new RecordFlagError(proxy);
	return { from, token, out: given.out, account, force };
}

/** An http(s) URL without credentials, query or fragment (it is written into FILE.partial), trailing slash dropped. */
function baseUrl(value: string): string {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new RecordFlagError(`--from must be a URL such as https://api.example.com/v2, got "${value}"`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RecordFlagError(`--from must be an http or https URL, got "${url.protocol}"`);
	if (url.username !== '' || url.password !== '') throw new RecordFlagError('--from must not hold credentials: give the token with --token');
	if (url.search !== '' || url.hash !== '') throw new RecordFlagError('--from must be the base URL only, without a query or fragment');
	// The nodes' rule (contract/token-transport.ts): the token over TLS, or over plain http to this machine only.
	const route = tokenRoute(url.href);
	if (route.route === 'plain-http') {
		throw new RecordFlagError(
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
