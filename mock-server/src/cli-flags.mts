/**
 * The CLI's flags (`--name value` or `--name=value`): one table, FLAGS, says each flag's value, default and meaning;
 * `--help` (USAGE) and the README's flag table (written by mock-server/scripts/readme-tables.mts) are made from it,
 * and the parser reads it. Anything unknown or invalid is an error.
 */
import { LIMITS } from './base/contract.mts';
import { parseCorsOrigin } from './http/cors.mts';
import { parseAllowedHosts } from './standalone/local-only.mts';
import { DEFAULT_HOST, DEFAULT_PORT, type StartOptions } from './server.mts';
import { DEFAULT_MAX_QUEUED, DEFAULT_MAX_QUEUED_PER_ACCOUNT } from './webhooks/delivery-engine.mts';
import { DEFAULT_OPTIONS } from './options.mts';
import { usageLines, type UsageFlag } from './base/usage-lines.mts';

/** What a flag's value is read as: a whole number, seconds, a scale, text, on/off, host names, or no value at all. */
type FlagKind = 'whole' | 'seconds' | 'scale' | 'text' | 'on-off' | 'hosts' | 'bare';

export interface Flag extends UsageFlag {
	kind: FlagKind;
	/** The start option it sets. */
	key: keyof StartOptions;
	default: string;
}

export const FLAGS: readonly Flag[] = [
	{ name: 'port', value: 'N', kind: 'whole', key: 'port', default: String(DEFAULT_PORT), meaning: 'port to listen on (0 = any free port)' },
	{ name: 'host', value: 'H', kind: 'text', key: 'host', default: DEFAULT_HOST, meaning: 'interface to bind; another than loopback prints a warning (the control routes have no authentication)' },
	{
		name: 'allowed-hosts', value: 'NAMES', kind: 'hosts', key: 'allowedHosts', default: 'none',
		meaning: 'host names served besides localhost and IP addresses, separated by commas (a compose service name); any other Host gets 403, against DNS rebinding',
	},
	{ name: 'seed', value: 'N', kind: 'whole', key: 'seed', default: String(DEFAULT_OPTIONS.seed), meaning: 'data seed: the same flags give the same data' },
	{ name: 'sources', value: 'N', kind: 'whole', key: 'sources', default: String(DEFAULT_OPTIONS.sources), meaning: 'number of sources' },
	{ name: 'jobs', value: 'N', kind: 'whole', key: 'jobs', default: String(DEFAULT_OPTIONS.jobs), meaning: 'number of jobs' },
	{ name: 'signals', value: 'N', kind: 'whole', key: 'signals', default: String(DEFAULT_OPTIONS.signals), meaning: 'number of signals' },
	{ name: 'token', value: 'T', kind: 'text', key: 'token', default: DEFAULT_OPTIONS.token, meaning: "the demo account's API token" },
	{ name: 'rate-limit', value: 'N', kind: 'whole', key: 'rateLimit', default: String(DEFAULT_OPTIONS.rateLimit), meaning: 'requests per minute per account (0 = off)' },
	{ name: 'rate-limit-headers', value: 'on|off', kind: 'on-off', key: 'rateLimitHeaders', default: 'on', meaning: 'off: no X-RateLimit-* headers; the limit holds, a 429 still carries Retry-After' },
	{ name: 'time-scale', value: 'X', kind: 'scale', key: 'timeScale', default: String(DEFAULT_OPTIONS.timeScale), meaning: 'multiplies every webhook delay and the rate-limit window (0.01 for tests)' },
	{ name: 'max-body-bytes', value: 'N', kind: 'whole', key: 'maxBodyBytes', default: String(LIMITS.maxRequestBodyBytes), meaning: 'request body limit, checked while reading: 413 above it' },
	{
		name: 'state-dir', value: 'DIR', kind: 'text', key: 'stateDir', default: 'none: memory only',
		meaning: 'keep every change in DIR/state.sqlite and restore it on start',
	},
	{ name: 'data', value: 'FILE', kind: 'text', key: 'data', default: 'none', meaning: 'add your own sources, jobs, signals and collections from a JSON file to the seed (with --sources 0: instead of it)' },
	{
		name: 'cycle-interval', value: 'S', kind: 'seconds', key: 'cycleInterval', default: '0: only POST /__mock/process',
		meaning: 'run a processing cycle every S seconds (fractions allowed), counted from the end of the last',
	},
	{
		name: 'max-queued-deliveries', value: 'N', kind: 'whole', key: 'maxQueuedDeliveries', default: String(DEFAULT_MAX_QUEUED),
		meaning: 'webhook deliveries queued at once, all accounts together; more are logged as not_sent in GET /__mock/deliveries',
	},
	{ name: 'max-queued-deliveries-per-account', value: 'N', kind: 'whole', key: 'maxQueuedDeliveriesPerAccount', default: String(DEFAULT_MAX_QUEUED_PER_ACCOUNT), meaning: 'the same, per account' },
	{
		name: 'max-created-records', value: 'N', kind: 'whole', key: 'maxCreatedRecords', default: String(DEFAULT_OPTIONS.maxCreatedRecords),
		meaning: 'jobs, and signals, that cycles and events create and keep (each kind, at least 1); past it each new one retires the oldest created one',
	},
	{
		name: 'cors-origin', value: 'O', kind: 'text', key: 'corsOrigin', default: DEFAULT_OPTIONS.corsOrigin,
		meaning: 'the web pages that may call the mock: loopback (http(s)://localhost, 127.0.0.1, [::1], any port), origins separated by commas (loopback,https://app.example.com), or * (any site you open may read the data and set webhooks); others get 403',
	},
	{ name: 'strict-query', kind: 'bare', key: 'strictQuery', default: 'off', meaning: 'answer 400 to a query parameter the endpoint does not take (else: an X-Mock-Warning header)' },
];

export class FlagError extends Error {}

export function parseFlags(argv: readonly string[]): StartOptions & { help?: boolean } {
	const out: StartOptions & { help?: boolean } = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--help' || arg === '-h') {
			out.help = true;
			continue;
		}
		const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
		if (!match) throw new FlagError(`Unexpected argument "${arg}"`);
		const name = match[1];
		const flag = FLAGS.find((each) => each.name === name);
		if (!flag) throw new FlagError(`Unknown flag --${name}`);
		if (flag.kind === 'bare') {
			if (match[2] !== undefined) throw new FlagError(`--${name} takes no value, got "${match[2]}"`);
			Object.assign(out, { [flag.key]: true });
			continue;
		}
		const value = match[2] ?? argv[++i];
		if (value === undefined || value === '') throw new FlagError(`--${name} needs a value`);
		Object.assign(out, { [flag.key]: flagValue(flag, value) });
	}
	return out;
}

function flagValue(flag: Flag, value: string): unknown {
	const { name, kind } = flag;
	if (kind === 'on-off') {
		if (value !== 'on' && value !== 'off') throw new FlagError(`--${name} must be on or off, got "${value}"`);
		return value === 'on';
	}
	if (kind === 'hosts') {
		try {
			return parseAllowedHosts(value);
		} catch (error) {
			throw new FlagError(`--${name}: ${(error as Error).message}`);
		}
	}
	if (kind === 'text') {
		if (name === 'cors-origin') {
			try {
				parseCorsOrigin(value);
			} catch (error) {
				throw new FlagError(`--cors-origin: ${(error as Error).message}`);
			}
		}
		return value;
	}
	const number = Number(value);
	const ok =
		kind === 'scale' ? Number.isFinite(number) && number > 0
		: kind === 'seconds' ? /^\d+(\.\d+)?$/.test(value) && Number.isFinite(number)
		: /^\d+$/.test(value) && Number.isSafeInteger(number);
	const wanted = kind === 'scale' ? 'a number greater than 0' : kind === 'seconds' ? 'a number of seconds ≥ 0' : 'a whole number ≥ 0';
	if (!ok) throw new FlagError(`--${name} must be ${wanted}, got "${value}"`);
	if (name === 'max-created-records' && number < 1) throw new FlagError(`--max-created-records must be at least 1, got ${value}`);
	if (name === 'port' && number > 65535) throw new FlagError(`--port must be at most 65535, got ${value}`);
	return number;
}

export const USAGE = `Usage: job-signals-mock [flags]
${usageLines(FLAGS)}

       job-signals-mock record --from URL --token T --out FILE
  clones a real account into a --data file (record --help: its flags)
       job-signals-mock check-drift --from URL --token T
  checks a service's answers against the contract (check-drift --help: its flags)`;
