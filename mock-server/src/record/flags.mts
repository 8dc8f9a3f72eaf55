/** `job-signals-mock record`'s flags (`--name value` or `--name=value`) and usage; anything unknown or invalid is an error. */

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
  --from URL      the API base URL (https://<host>/v2)
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

export function parseRecordFlags(argv: readonly string[], env: NodeJS.ProcessEnv): RecordFlags | 'help' {
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
	return { from: baseUrl(given.from), token, out: given.out, account, force };
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
	return url.href.replace(/\/+$/, '');
}
