/** Parses the CLI flags (`--name value` or `--name=value`); anything unknown or invalid is an error. */
import { LIMITS } from './base/contract.mts';
import { parseCorsOrigin } from './http/cors.mts';
import { parseAllowedHosts } from './standalone/local-only.mts';
import type { StartOptions } from './server.mts';
import { DEFAULT_MAX_QUEUED, DEFAULT_MAX_QUEUED_PER_ACCOUNT } from './webhooks/delivery-engine.mts';
import { DEFAULT_OPTIONS } from './options.mts';

const NUMERIC = { port: 'port', seed: 'seed', sources: 'sources', jobs: 'jobs', signals: 'signals', 'rate-limit': 'rateLimit', 'time-scale': 'timeScale', 'max-body-bytes': 'maxBodyBytes', 'cycle-interval': 'cycleInterval', 'max-queued-deliveries': 'maxQueuedDeliveries', 'max-queued-deliveries-per-account': 'maxQueuedDeliveriesPerAccount', 'max-created-records': 'maxCreatedRecords' } as const;
const TEXT = { host: 'host', token: 'token', 'state-dir': 'stateDir', 'cors-origin': 'corsOrigin', data: 'data' } as const;
const SWITCHES = { 'rate-limit-headers': 'rateLimitHeaders' } as const;
/** Flags that take no value: present means on. */
const BARE = { 'strict-query': 'strictQuery' } as const;

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
		if (name in BARE) {
			if (match[2] !== undefined) throw new FlagError(`--${name} takes no value, got "${match[2]}"`);
			out[BARE[name as keyof typeof BARE]] = true;
			continue;
		}
		if (!(name in NUMERIC) && !(name in TEXT) && !(name in SWITCHES) && name !== 'allowed-hosts') throw new FlagError(`Unknown flag --${name}`);
		const value = match[2] ?? argv[++i];
		if (value === undefined || value === '') throw new FlagError(`--${name} needs a value`);
		if (name in SWITCHES) {
			if (value !== 'on' && value !== 'off') throw new FlagError(`--${name} must be on or off, got "${value}"`);
			out[SWITCHES[name as keyof typeof SWITCHES]] = value === 'on';
			continue;
		}
		if (name === 'cors-origin') {
			try {
				parseCorsOrigin(value);
			} catch (error) {
				throw new FlagError(`--cors-origin: ${(error as Error).message}`);
			}
		}
		if (name === 'allowed-hosts') {
			try {
				out.allowedHosts = parseAllowedHosts(value);
			} catch (error) {
				throw new FlagError(`--allowed-hosts: ${(error as Error).message}`);
			}
			continue;
		}
		if (name in TEXT) {
			out[TEXT[name as keyof typeof TEXT]] = value;
			continue;
		}
		const key = NUMERIC[name as keyof typeof NUMERIC];
		const number = Number(value);
		const ok =
			key === 'timeScale' ? Number.isFinite(number) && number > 0
			: key === 'cycleInterval' ? /^\d+(\.\d+)?$/.test(value) && Number.isFinite(number)
			: /^\d+$/.test(value) && Number.isSafeInteger(number);
		const wanted = key === 'timeScale' ? 'a number greater than 0' : key === 'cycleInterval' ? 'a number of seconds ≥ 0' : 'a whole number ≥ 0';
		if (!ok) throw new FlagError(`--${name} must be ${wanted}, got "${value}"`);
		if (key === 'maxCreatedRecords' && number < 1) throw new FlagError(`--max-created-records must be at least 1, got ${value}`);
		if (key === 'port' && number > 65535) throw new FlagError(`--port must be at most 65535, got ${value}`);
		out[key] = number;
	}
	return out;
}

export const USAGE = `Usage: job-signals-mock [flags]
  --port N          port to listen on (default 4010; 0 = any free port)
  --host H          interface to bind (default 127.0.0.1; any other than loopback prints a
                    warning: the control routes /__mock/... have no authentication)
  --allowed-hosts NAMES  host names served besides localhost and IP addresses, separated by
                    commas (default none: any other Host header is refused, against DNS rebinding)
  --seed N          data seed (default 42)
  --sources N       number of sources (default 2000)
  --jobs N          number of jobs (default 100000)
  --signals N       number of signals (default 100000)
  --token T         the demo account's API token (default demo-token-job-signals)
  --rate-limit N    requests per minute per account (default 60; 0 = off)
  --time-scale X    multiplies webhook delays and the rate-limit window (default 1)
  --max-body-bytes N  request body limit, checked while reading: 413 above it (default ${LIMITS.maxRequestBodyBytes})
  --state-dir DIR   keep every change (webhook settings, subscribers, cycles, faults,
                    delivery log) in DIR/state.sqlite and restore it on start (default: memory only)
  --cycle-interval S  run a cycle every S seconds (default 0: only POST /__mock/process)
  --max-queued-deliveries N  webhook deliveries queued at once, all accounts (default ${DEFAULT_MAX_QUEUED});
                    more are logged as not_sent in GET /__mock/deliveries
  --max-queued-deliveries-per-account N  the same, per account (default ${DEFAULT_MAX_QUEUED_PER_ACCOUNT})
  --max-created-records N  jobs, and signals, that cycles and /__mock/events create and keep
                    (each kind; default ${DEFAULT_OPTIONS.maxCreatedRecords}); past it each new one retires the
                    oldest created one (a job with job_deleted events)
  --rate-limit-headers on|off  send the X-RateLimit-* headers (default on; off still
                    limits, and a 429 still carries Retry-After)
  --strict-query    answer 400 to a query parameter the endpoint does not take (default:
                    answer as without it, with an X-Mock-Warning header naming it)
  --cors-origin O   the web pages that may call the mock: loopback (default: pages on
                    http(s)://localhost, 127.0.0.1 and [::1], any port), origins separated by
                    commas, loopback possibly among them (loopback,https://app.example.com), or
                    * (any page: any site you open can read the data and set webhooks); a page
                    not allowed is refused with 403, and the mock's own page is always allowed
  --data FILE       add your own sources, jobs, signals and collections from a JSON
                    file to the seed (with --sources 0: instead of it)

       job-signals-mock record --from URL --token T --out FILE
  clones a real account into a --data file (record --help: its flags)
       job-signals-mock check-drift --from URL --token T
  checks a service's answers against the contract (check-drift --help: its flags)`;
