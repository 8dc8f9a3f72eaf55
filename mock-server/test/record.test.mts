// `job-signals-mock record` (the built CLI) against a second mock as the upstream: the clone it writes, served with
// --data, answers every list as the upstream does, page by page; one call per page, within the rate limit; an
// interrupted walk goes on where it stopped; the token is in no file; every bad input is one line and an exit status.
// The rate-limited upstreams run on a frozen clock (`pacedUpstream`): what a case proves does not hang on how fast a
// busy machine makes the calls.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_VERSION_SEGMENT, CURSOR_PARAMS, LIMITS, MAX_REDIRECTS, MOCK_CONTROL_PATHS, SIGNAL_CATEGORIES, SIGNAL_GROUPS } from '../src/base/contract.mts';
import type { RateBudget } from '../src/http/rate-limit.mts';
import { createMockService } from '../src/service.mts';
import { startMockServer, type RunningMockServer, type StartOptions } from '../src/server.mts';
import { CLI, runCli, type CliProcess } from './cli-process.mts';
import { freePort } from './free-port.mts';
import { DEMO_TOKEN, VOLUME_TOKEN } from './harness.mts';

/**
 * The upstream: a small data set whose high-volume account (the one cloned) has two collections of over 100
 * sources (two cursor pages each), jobs its own region filter thins, and signals over 1,000 in each group (two pages).
 * A low rate limit, so the walk waits on it several times: 8 calls a window of 0.6 s on the mock's clock (the time
 * scale's), which X-RateLimit-Reset rounds up to 1 s, the real time a walk waits each time.
 */
const DATA = { seed: 11, sources: 250, jobs: 900, signals: 2500 };

// Every case and set-up runs the CLI, a Node process, up to ten times, most of them walking the upstream's pages:
// seconds on a quiet machine, but at a load of about 20 on two cores cases took 40-63 s and the clone's set-up over
// 60 s. Five minutes each; a walk that hangs still fails.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });
const RATE = { rateLimit: 8, timeScale: 0.01 };
const CLONED_ACCOUNT = 'acc_volume';

interface Page {
	status: number;
	text: string;
}

const get = async (base: string, path: string, token: string): Promise<Page> => {
	const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
	return { status: response.status, text: await response.text() };
};

/**
 * A rate-limited upstream on a frozen clock: a window holds its 8 calls however slowly a busy machine makes them (on
 * the wall clock, a window could end before the 8th call, and the walk never meet its limit). Its time moves here
 * only: a call that comes once the budget is spent ends the window (the clock advanced to the window's end) if the
 * client was told to wait (by the answer that spent the budget, or by a 429) and has waited the window's rest since, in
 * real time; a call sooner meets the spent budget, a 429, as on the service. A busy machine only lengthens the real wait.
 * `holdAfter(n)` leaves every call after the n-th unanswered, so a case stops a walk at a known page.
 */
async function pacedUpstream(options: StartOptions = {}) {
	const server = await startMockServer({ ...DATA, ...RATE, ...options, port: 0 });
	const { service } = server;
	const routes = service.handlers;
	const budget = async () => {
		const answer = await getResponse(routes, new Request(`${server.appUrl}${MOCK_CONTROL_PATHS.accounts}`));
		const { data } = (await answer!.json()) as { data: { account_id: string; rate_limit: RateBudget }[] };
		return data.find((account) => account.account_id === CLONED_ACCOUNT)!.rate_limit;
	};
	let told: { at: number; waitMs: number } | undefined;
	let hold: { after: number; reached: () => void } | undefined;
	service.clock.freeze();
	service.handlers = [
		http.all('*', async ({ request }) => {
			// The mock's own routes (GET /__mock/accounts above) are not calls.
			if (!new URL(request.url).pathname.startsWith(`${API_VERSION_SEGMENT}/`)) return undefined;
			if (hold !== undefined && calls(server).length >= hold.after) {
				hold.reached();
				return new Promise<never>(() => undefined);
			}
			const { remaining, resets_in_ms: rest } = await budget();
			if (remaining === 0 && told !== undefined && performance.now() - told.at >= told.waitMs) {
				service.clock.advance(Math.ceil(rest!));
				told = undefined;
			} else if (remaining === 0) {
				// Its 429 tells the client to wait.
				told ??= { at: performance.now(), waitMs: rest! };
			} else if (remaining === 1 && service.options.rateLimitHeaders) {
				// Its answer's X-RateLimit-Remaining 0 tells the client to wait.
				told = { at: performance.now(), waitMs: rest! };
			}
			// On to the service's routes.
			return undefined;
		}),
		...routes,
	];
	return {
		server,
		/** Leaves every call after the n-th of the journal unanswered; resolves once one waits. */
		holdAfter: (after: number) => new Promise<void>((reached) => (hold = { after, reached })),
		/** Answers the calls from now on. */
		release: () => (hold = undefined),
		/** Back to the seed, the clock frozen again, no call held. */
		reset: async () => {
			await service.reset();
			service.clock.freeze();
			told = undefined;
			hold = undefined;
		},
	};
}

let paced: Awaited<ReturnType<typeof pacedUpstream>>;
let upstream: RunningMockServer;
/** The same data as the upstream without its rate limit: what the upstream answers, asked as often as the comparison needs. */
let reference: RunningMockServer;
/**
 * The same data again, without a rate limit, for the walks a case only needs finished (the token from the
 * environment, --force, a resumed walk after a fault, ...): each walk of the upstream waits out its rate limit
 * about three times. What the rate limit does to a walk is proven on the upstream.
 */
let unpaced: RunningMockServer;
const running: CliProcess[] = [];
const dirs: string[] = [];
const start = (args: string[]) => {
	const cli = runCli(args);
	running.push(cli);
	return cli;
};
const newDir = () => {
	const dir = mkdtempSync(join(tmpdir(), 'mock-record-'));
	dirs.push(dir);
	return dir;
};
const recordArgs = (out: string, from = upstream.apiUrl, token = VOLUME_TOKEN) => ['record', '--from', from, '--token', token, '--out', out];

/** The journal's calls as `GET /v2/jobs?offset=100`, in order. */
const calls = (server: RunningMockServer) =>
	server.service.requests().data.map((e) => ({ call: `${e.method} ${e.path}${Object.keys(e.query).length === 0 ? '' : `?${new URLSearchParams(e.query as Record<string, string>)}`}`, status: e.status }));

/** The pages the walk must fetch, from the lists' own counts: the collections, each collection's sources, the jobs, each signal group. */
async function pageCount(): Promise<number> {
	const api = async (path: string) => JSON.parse((await get(reference.apiUrl, path, VOLUME_TOKEN)).text) as Record<string, never>;
	const collections = (await api('/collections')).data as { count_sources: number }[];
	let pages = 1 + collections.reduce((sum, c) => sum + Math.max(1, Math.ceil(c.count_sources / LIMITS.cursorPageSize)), 0);
	const jobs = (await api('/jobs')).metrics as { count_jobs: number };
	pages += Math.max(1, Math.ceil(jobs.count_jobs / LIMITS.jobSearchPageSize));
	for (const group of SIGNAL_GROUPS) {
		const signals = (await api(`/signals/${group}?per_page=${LIMITS.signalsMaxPerPage}&direct_only=false&active_only=false`)).pagination as { count_pages: number };
		pages += Math.max(1, signals.count_pages);
	}
	return pages;
}

/** A walk run to the end, once for the file: the clone the other tests compare theirs with. */
let fullClone: Promise<{ text: string; stderr: string; stdout: string; calls: ReturnType<typeof calls> }> | undefined;
function recordOnce() {
	fullClone ??= (async () => {
		await paced.reset();
		const out = join(newDir(), 'clone.json');
		const cli = start(recordArgs(out));
		expect(await cli.exited).toBe(0);
		return { text: readFileSync(out, 'utf8'), ...cli.output(), calls: calls(upstream) };
	})();
	return fullClone;
}

beforeAll(async () => {
	if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build -w mock-server\` first`);
	[paced, reference, unpaced] = await Promise.all([
		pacedUpstream(),
		startMockServer({ ...DATA, rateLimit: 0, port: 0 }),
		startMockServer({ ...DATA, rateLimit: 0, port: 0 }),
	]);
	upstream = paced.server;
});
afterEach(() => {
	for (const cli of running.splice(0)) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
});
afterAll(async () => {
	await Promise.all([upstream.close(), reference.close(), unpaced.close()]);
});

describe('record, then --data', () => {
	let clone: CliProcess;
	let cloneUrl: string;
	beforeAll(async () => {
		const { text } = await recordOnce();
		const file = join(newDir(), 'clone.json');
		writeFileSync(file, text);
		clone = runCli(['--port', '0', '--sources', '0', '--rate-limit', '0', '--data', file]);
		[, cloneUrl] = await clone.waitFor(/API base URL: (\S+)\n/);
	});
	afterAll(() => {
		clone.child.kill('SIGKILL');
	});

	it('makes one call per page, within the rate limit, and shows its progress', async () => {
		const { calls: made, stdout, stderr, text } = await recordOnce();
		const pages = await pageCount();
		expect(made.filter((c) => c.status !== 200)).toEqual([]);
		expect(made).toHaveLength(pages);
		expect(new Set(made.map((c) => c.call)).size).toBe(pages);
		// Signals at the largest page, all of them; job search without filters.
		expect(made.map((c) => c.call)).toContain('GET /v2/signals/problems?page=1&per_page=1000&direct_only=false&active_only=false');
		expect(made.map((c) => c.call)).toContain('GET /v2/jobs?offset=100');
		const file = JSON.parse(text) as Record<string, unknown[]>;
		const counts = Object.fromEntries(Object.entries(file).map(([k, v]) => [k, v.length]));
		expect(stdout).toContain(`: ${counts.collections} collections, ${counts.sources} sources, ${counts.jobs} jobs, ${counts.signals} signals (${pages} pages; this run ${pages} calls in `);
		expect(stderr).toMatch(/^record: \d+\/~?\d+ pages, \d+ collections, [\d,]+ sources, [\d,]+ jobs, [\d,]+ signals; about \d+ s left at 8 requests per \d+ s$/m);
		expect(stderr).toMatch(/; waiting \d+ s \(the rate limit's budget is spent\)$/m);
	});

	it('serves the account\'s collections, sources and jobs to the demo account as the upstream does, page by page', async () => {
		const differences: string[] = [];
		let compared = 0;
		/** Every page of a list on both; `next` reads a page's way to the next one. */
		const same = async (first: string, next: (body: Record<string, unknown>, path: string) => string | undefined = () => undefined) => {
			for (let path: string | undefined = first, n = 0; path !== undefined && n < 500; n++) {
				const [want, got] = await Promise.all([get(reference.apiUrl, path, VOLUME_TOKEN), get(cloneUrl, path, DEMO_TOKEN)]);
				compared++;
				if (want.status !== got.status || want.text !== got.text) {
					differences.push(`${path}: ${want.status} ${want.text.slice(0, 80)} ≠ ${got.status} ${got.text.slice(0, 80)}`);
					return;
				}
				if (want.status !== 200) return;
				path = next(JSON.parse(want.text) as Record<string, unknown>, path);
			}
		};
		const byCursor = (param: string) => (body: Record<string, unknown>, path: string) =>
			body[param] === undefined ? undefined : `${path.split('?')[0]}?${param}=${encodeURIComponent(body[param] as string)}`;
		const byOffset = (body: Record<string, unknown>, path: string) => {
			const url = new URL(path, 'http://x');
			const offset = Number(url.searchParams.get('offset') ?? 0) + (body.data as unknown[]).length;
			if ((body.data as unknown[]).length === 0 || offset >= (body.metrics as { count_jobs: number }).count_jobs) return undefined;
			url.searchParams.set('offset', String(offset));
			return `${url.pathname}${url.search}`;
		};

		await same('/collections');
		const collections = JSON.parse((await get(reference.apiUrl, '/collections', VOLUME_TOKEN)).text) as { data: { collection_id: string }[] };
		const sources: { source_id: string; url_source: string }[] = [];
		for (const { collection_id } of collections.data) {
			await same(`/collections/${collection_id}/sources`, byCursor(CURSOR_PARAMS.sources));
			for (let cursor: string | undefined, n = 0; n === 0 || cursor !== undefined; n++) {
				const page = JSON.parse((await get(reference.apiUrl, `/collections/${collection_id}/sources${cursor === undefined ? '' : `?${CURSOR_PARAMS.sources}=${cursor}`}`, VOLUME_TOKEN)).text) as { data: typeof sources; cursor_source_id?: string };
				sources.push(...page.data);
				cursor = page.cursor_source_id;
			}
		}
		expect(sources.length).toBeGreaterThan(200);
		for (const source of sources) {
			await same(`/sources/id/${source.source_id}`);
			await same(`/sources/${source.url_source}`);
			await same(`/sources/id/${source.source_id}/jobs`, byCursor(CURSOR_PARAMS.jobs));
			await same(`/sources/${source.url_source}/jobs`, byCursor(CURSOR_PARAMS.jobs));
		}
		await same('/jobs', byOffset);
		await same('/jobs?search=engineer', byOffset);
		await same('/jobs?locations=berlin', byOffset);
		const jobs = JSON.parse((await get(reference.apiUrl, '/jobs?offset=0', VOLUME_TOKEN)).text) as { data: { job_id: string }[] };
		for (const { job_id } of jobs.data) await same(`/jobs/${job_id}`);
		expect(differences).toEqual([]);
		expect(compared).toBeGreaterThan(4 * sources.length);
	});

	it('serves every signals list as the upstream does, at each page size and filter', async () => {
		const differences: string[] = [];
		let compared = 0;
		const lists = [
			...SIGNAL_GROUPS.map((g) => ({ path: `/signals/${g}`, sizes: ['', 'per_page=1000'] })),
			...SIGNAL_CATEGORIES.map((c) => ({ path: `/signals/${c.group}/${c.id}`, sizes: ['', 'per_page=1000'] })),
			...SIGNAL_CATEGORIES.flatMap((c) => c.types.map((t) => ({ path: `/signals/${c.group}/${c.id}/${t}`, sizes: ['', 'per_page=1000', 'per_page=7'] }))),
		];
		for (const { path, sizes } of lists) {
			for (const size of sizes) {
				for (const filter of ['', 'direct_only=false&active_only=false']) {
					for (let page = 1, pages = 1; page <= pages; page++) {
						const query = [size, filter, `page=${page}`].filter((q) => q !== '').join('&');
						const [want, got] = await Promise.all([get(reference.apiUrl, `${path}?${query}`, VOLUME_TOKEN), get(cloneUrl, `${path}?${query}`, DEMO_TOKEN)]);
						compared++;
						if (want.status !== 200 || want.text !== got.text) differences.push(`${path}?${query}`);
						pages = (JSON.parse(want.text) as { pagination: { count_pages: number } }).pagination.count_pages;
					}
				}
			}
		}
		expect(differences).toEqual([]);
		expect(compared).toBeGreaterThan(500);
	});

	it('keeps the token out of every file, and leaves no checkpoint behind', async () => {
		const dir = newDir();
		const out = join(dir, 'clone.json');
		writeFileSync(out, (await recordOnce()).text);
		expect(readdirSync(dir)).toEqual(['clone.json']);
		expect(readFileSync(out, 'utf8')).not.toContain(VOLUME_TOKEN);
	});
});

describe('the clone is the mock\'s data', () => {
	it('runs cycles whose ids are new, sends events to the demo account, and keeps changes in a state folder', async () => {
		const data = join(newDir(), 'clone.json');
		writeFileSync(data, (await recordOnce()).text);
		const file = JSON.parse(readFileSync(data, 'utf8')) as { jobs: { job_id: string }[]; signals: { signal_id: string }[] };
		const stateDir = newDir();
		const options = { sources: 0, data, stateDir, rateLimit: 0 };
		const first = await createMockService(options);
		const events = await first.processCycle({ created: 5, updated: 0, deleted: 1, signals: 3, domain_changes: 0 });
		first.close();
		const created = events.filter((e) => e.event_type === 'job_created').map((e) => (e.event_data as { job_id: string }).job_id);
		const signals = events.filter((e) => e.event_type === 'signal').map((e) => (e.event_data as { signal_id: string }).signal_id);
		expect(created).toHaveLength(5);
		expect(signals).toHaveLength(3);
		expect(new Set(events.map((e) => e.account_id))).toEqual(new Set(['acc_demo']));
		const fileJobs = new Set(file.jobs.map((j) => j.job_id));
		const fileSignals = new Set(file.signals.map((s) => s.signal_id));
		expect(created.filter((id) => fileJobs.has(id))).toEqual([]);
		expect(signals.filter((id) => fileSignals.has(id))).toEqual([]);
		const again = await createMockService(options);
		try {
			expect(again.store.jobs.size).toBe(file.jobs.length + 5 - 1);
			for (const id of created) expect(again.store.jobById(id)).toBeDefined();
		} finally {
			again.close();
		}
	});
});

describe('an interrupted walk', () => {
	beforeEach(async () => {
		await recordOnce();
		await paced.reset();
	});

	it('goes on where it stopped (SIGINT, then SIGKILL and a line cut short), fetching no page twice but the one in flight', async () => {
		const out = join(newDir(), 'clone.json');
		const partial = `${out}.partial`;
		const pages = await pageCount();

		// Each walk stopped while its next call waits at the upstream, after the 4th call and after the 10th.
		const fourth = paced.holdAfter(4);
		const first = start(recordArgs(out));
		await fourth;
		first.child.kill('SIGINT');
		expect(await first.exited).toBe(130);
		expect(first.output().stderr).toMatch(/^job-signals-mock record: stopped \(SIGINT\); \d+ pages kept in \S+clone\.json\.partial: run again with --resume to continue$/m);
		expect(existsSync(out)).toBe(false);

		// Without --resume or --restart, a checkpoint with pages is refused, naming both.
		const plain = start(recordArgs(out));
		expect(await plain.exited).toBe(2);
		expect(plain.output().stderr).toMatch(/^job-signals-mock record: \S+clone\.json\.partial holds \d+ pages of an earlier walk: add --resume to continue it, or --restart to start over\n$/);

		const tenth = paced.holdAfter(10);
		const second = start([...recordArgs(out), '--resume']);
		await tenth;
		second.child.kill('SIGKILL');
		await second.exited;
		expect(existsSync(out)).toBe(false);
		expect(readFileSync(partial, 'utf8')).not.toContain(VOLUME_TOKEN);
		// A page whose write a crash cut short.
		appendFileSync(partial, '{"request":{"list":"jobs","offset":');

		paced.release();
		const third = start([...recordArgs(out), '--resume']);
		expect(await third.exited).toBe(0);
		expect(third.output().stderr).toMatch(/^job-signals-mock record: continuing the walk kept in \S+\.partial \(\d+ pages\)$/m);
		expect(readFileSync(out, 'utf8')).toBe((await recordOnce()).text);
		expect(existsSync(partial)).toBe(false);

		const made = calls(upstream);
		expect(made.filter((c) => c.status !== 200)).toEqual([]);
		const twice = made.length - new Set(made.map((c) => c.call)).size;
		expect(twice).toBeLessThanOrEqual(2);
		expect(made.length).toBe(pages + twice);
	});

	it('--restart deletes the kept walk and starts over; a checkpoint without a page (a first call that failed) blocks nothing', async () => {
		const out = join(newDir(), 'clone.json');
		const partial = `${out}.partial`;
		const fourth = paced.holdAfter(4);
		const first = start(recordArgs(out));
		await fourth;
		first.child.kill('SIGINT');
		expect(await first.exited).toBe(130);
		await paced.reset();
		const again = start([...recordArgs(out), '--restart']);
		expect(await again.exited).toBe(0);
		expect(again.output().stderr).not.toContain('continuing');
		expect(calls(upstream)).toHaveLength(await pageCount());
		expect(readFileSync(out, 'utf8')).toBe((await recordOnce()).text);
		expect(existsSync(partial)).toBe(false);

		// A checkpoint holding its first line only (as a walk killed before its first page leaves it): a plain run goes on.
		const other = join(newDir(), 'clone.json');
		writeFileSync(`${other}.partial`, `${JSON.stringify({ format: 'job-signals-mock record checkpoint', version: 1, from: 'https://elsewhere.example/v2', account: 'acc_demo' })}\n`);
		const fresh = start(recordArgs(other, unpaced.apiUrl));
		expect(await fresh.exited).toBe(0);
		expect(readFileSync(other, 'utf8')).toBe((await recordOnce()).text);
		expect(await run([...recordArgs(join(newDir(), 'x.json')), '--resume', '--restart'])).toMatchObject({ status: 2, stderr: expect.stringMatching(/^job-signals-mock record: --resume and --restart exclude each other/) });
	});
});

describe('an upstream without rate-limit headers', () => {
	let bare: RunningMockServer;
	beforeAll(async () => {
		bare = (await pacedUpstream({ rateLimitHeaders: false })).server;
	});
	afterAll(() => bare.close());

	it('waits out each 429\'s Retry-After and asks for the same page again: the same clone', async () => {
		const out = join(newDir(), 'clone.json');
		const cli = start(recordArgs(out, bare.apiUrl));
		expect(await cli.exited).toBe(0);
		expect(readFileSync(out, 'utf8')).toBe((await recordOnce()).text);
		const made = calls(bare);
		const pages = await pageCount();
		// The call after each window's 8th, and only that one: it waited out the Retry-After before it was made again.
		expect(made.filter((c) => c.status === 429)).toHaveLength(Math.ceil(pages / RATE.rateLimit) - 1);
		// Each refused call is made again, and then answered.
		expect(made.filter((c) => c.status === 200)).toHaveLength(pages);
		expect(new Set(made.filter((c) => c.status === 200).map((c) => c.call)).size).toBe(pages);
		expect(cli.output().stderr).toMatch(/; waiting \d+ s \(the API answered 429\)$/m);
	});
});

const run = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
	const cli = runCliWith(args, env);
	const status = await cli.exited;
	return { status, ...cli.output() };
};
// The child inherits the environment as it is when spawned (synchronously), so it is set just around that.
// A variable given as undefined is left out of the child's environment.
const runCliWith = (args: string[], env: NodeJS.ProcessEnv) => {
	const set = (values: NodeJS.ProcessEnv) => {
		for (const [name, value] of Object.entries(values)) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	};
	const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
	set(env);
	try {
		return start(args);
	} finally {
		set(saved);
	}
};
const oneLine = (stderr: string) => {
	const lines = stderr.trim().split('\n');
	expect(lines).toHaveLength(1);
	return lines[0];
};

describe('bad input: one line and an exit status', () => {
	beforeEach(async () => {
		await Promise.all([paced.reset(), unpaced.service.reset()]);
	});
	it('an unreachable URL: exit 1', async () => {
		const out = join(newDir(), 'clone.json');
		// A port just free: nothing listens there.
		const port = await freePort();
		const result = await run(recordArgs(out, `http://127.0.0.1:${port}/v2`));
		expect(result.status).toBe(1);
		expect(oneLine(result.stderr)).toBe(`job-signals-mock record: cannot reach http://127.0.0.1:${port}/v2/collections: ECONNREFUSED`);
		// No page, nothing kept: the next run is not blocked.
		expect(readdirSync(dirname(out))).toEqual([]);
	});

	it('a base URL without /v2: exit 1 with the fix named; nothing kept, so the corrected command just runs', async () => {
		const out = join(newDir(), 'clone.json');
		const origin = new URL(unpaced.apiUrl).origin;
		const result = await run(recordArgs(out, origin));
		expect(result.status).toBe(1);
		expect(oneLine(result.stderr)).toBe(
			`job-signals-mock record: page 1 of the collections (/collections): the API answered 404 No such endpoint (is --from the API base URL? It must end in /v2, e.g. --from ${origin}/v2)`,
		);
		expect(readdirSync(dirname(out))).toEqual([]);
		const deeper = await run(recordArgs(out, `${origin}/v2/collections`));
		expect(oneLine(deeper.stderr)).toMatch(new RegExp(`It must end in /v2, e\\.g\\. --from ${origin.replaceAll('.', '\\.')}/v2\\)$`));
		const corrected = await run(recordArgs(out, `${origin}/v2`));
		expect(corrected.status).toBe(0);
	});

	it('a token the API refuses: exit 3, the token not repeated', async () => {
		const out = join(newDir(), 'clone.json');
		const result = await run(recordArgs(out, upstream.apiUrl, 'wrong-token-123'));
		expect(result.status).toBe(3);
		expect(oneLine(result.stderr)).toMatch(/^job-signals-mock record: the API refused the token: 400 Invalid API token \(GET http:\/\/127\.0\.0\.1:\d+\/v2\/collections\)$/);
		expect(result.stderr + result.stdout).not.toContain('wrong-token-123');
		expect(calls(upstream)).toEqual([{ call: 'GET /v2/collections', status: 400 }]);
	});

	it('a page that is not JSON, or not the page asked for: exit 1, the pages before it kept; the same command then finishes', async () => {
		const out = join(newDir(), 'clone.json');
		const faults = async (body: unknown) => {
			const answer = await fetch(`${unpaced.appUrl}/__mock/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [body] }) });
			expect(answer.status).toBe(200);
		};
		await faults({ path: '/v2/jobs', body: 'truncated-json', after: 1, times: 1 });
		const cut = await run(recordArgs(out, unpaced.apiUrl));
		expect(cut.status).toBe(1);
		expect(oneLine(cut.stderr.replace(/^record: .*\n/gm, ''))).toMatch(
			/^job-signals-mock record: page 2 of the jobs \(\/jobs\?offset=100\): the answer is not JSON \(.+; application\/json, \d+ characters: \{"data":\[.*\); \d+ pages kept in \S+\.partial: run again with --resume to continue$/,
		);
		await faults({ path: '/v2/signals/changes', body: 'wrong-shape', times: 1 });
		const wrong = await run([...recordArgs(out, unpaced.apiUrl), '--resume']);
		expect(wrong.status).toBe(1);
		expect(oneLine(wrong.stderr.replace(/^record: .*\n/gm, '').replace(/^job-signals-mock record: continuing .*\n/m, ''))).toMatch(
			// The first page of each list came first, in the run before.
			/^job-signals-mock record: page 2 of the changes signals \(\/signals\/changes\?page=2&per_page=1000&direct_only=false&active_only=false\): not a page of changes signals: group: Invalid input: expected string, received undefined; \d+ pages kept/,
		);
		expect(existsSync(`${out}.partial`)).toBe(true);
		const done = await run([...recordArgs(out, unpaced.apiUrl), '--resume']);
		expect(done.status).toBe(0);
		expect(readFileSync(out, 'utf8')).toBe((await recordOnce()).text);
	});

	it('--out in a missing folder, an existing --out (unless --force), a folder, another walk\'s checkpoint: exit 2 before any call', async () => {
		const dir = newDir();
		const missing = await run(recordArgs(join(dir, 'nowhere', 'clone.json')));
		expect(missing.status).toBe(2);
		expect(oneLine(missing.stderr)).toBe(`job-signals-mock record: cannot write ${join(dir, 'nowhere', 'clone.json')}: the folder ${join(dir, 'nowhere')} does not exist`);
		const existing = join(dir, 'existing.json');
		writeFileSync(existing, '{}');
		const refused = await run(recordArgs(existing));
		expect(refused.status).toBe(2);
		expect(oneLine(refused.stderr)).toBe(`job-signals-mock record: ${existing} exists: add --force to replace it`);
		mkdirSync(join(dir, 'folder.json'));
		const folder = await run(recordArgs(join(dir, 'folder.json')));
		expect(oneLine(folder.stderr)).toBe(`job-signals-mock record: --out ${join(dir, 'folder.json')} is a folder: give a file name`);
		const page = `${JSON.stringify({ request: { list: 'collections' }, body: { data: [] } })}\n`;
		writeFileSync(join(dir, 'other.json.partial'), `${JSON.stringify({ format: 'job-signals-mock record checkpoint', version: 1, from: 'https://elsewhere.example/v2', account: 'acc_demo' })}\n${page}`);
		const other = await run(recordArgs(join(dir, 'other.json')));
		expect(other.status).toBe(2);
		expect(oneLine(other.stderr)).toMatch(/other\.json\.partial holds 1 pages of an earlier walk \(of https:\/\/elsewhere\.example\/v2 for account acc_demo\): add --resume to continue it, or --restart to start over$/);
		const resumed = await run([...recordArgs(join(dir, 'other.json')), '--resume']);
		expect(resumed.status).toBe(2);
		expect(oneLine(resumed.stderr)).toMatch(/other\.json\.partial is the walk of https:\/\/elsewhere\.example\/v2 for account acc_demo: --resume continues it with that --from and --account only; add --restart to start over$/);
		writeFileSync(join(dir, 'mine.json.partial'), 'my notes\n');
		const notOurs = await run([...recordArgs(join(dir, 'mine.json')), '--restart']);
		expect(notOurs.status).toBe(2);
		expect(oneLine(notOurs.stderr)).toMatch(/mine\.json\.partial is not a record checkpoint: move it away or choose another --out$/);
		expect(readFileSync(join(dir, 'mine.json.partial'), 'utf8')).toBe('my notes\n');
		expect(calls(upstream)).toEqual([]);
		const forced = await run([...recordArgs(existing, unpaced.apiUrl), '--force']);
		expect(forced.status).toBe(0);
		expect(readFileSync(existing, 'utf8')).toBe((await recordOnce()).text);
	});

	it('bad flags: exit 2 with the usage; the token may come from JOB_SIGNALS_TOKEN; --help prints the usage', async () => {
		const out = join(newDir(), 'clone.json');
		const cases: [string[], RegExp][] = [
			[['record', '--from', upstream.apiUrl, '--out', out], /--token is required \(or the JOB_SIGNALS_TOKEN environment variable\)/],
			[['record', '--token', 't', '--out', out], /--from is required/],
			[['record', '--from', 'ftp://x/v2', '--token', 't', '--out', out], /--from must be an http or https URL, got "ftp:"/],
			[['record', '--from', 'http://user:secret@x/v2', '--token', 't', '--out', out], /--from must not hold credentials/],
			[['record', '--from', upstream.apiUrl, '--token', 't', '--out', out, '--seed', '1'], /Unknown flag --seed/],
			[[...recordArgs(out), '--account', 'acc_nobody'], /--account acc_nobody is not one of the mock's accounts \(acc_demo, acc_second, acc_volume\)/],
		];
		for (const [args, message] of cases) {
			const result = await run(args);
			expect(result.status, args.join(' ')).toBe(2);
			expect(result.stderr.split('\n')[0]).toMatch(message);
		}
		const fromEnvironment = await run(['record', '--from', unpaced.apiUrl, '--out', out], { JOB_SIGNALS_TOKEN: VOLUME_TOKEN });
		expect(fromEnvironment.status).toBe(0);
		const help = await run(['record', '--help']);
		expect(help.status).toBe(0);
		expect(help.stdout).toMatch(/^Usage: job-signals-mock record --from URL --token T --out FILE/);
		const mockHelp = await run(['--help']);
		expect(mockHelp.stdout).toContain('job-signals-mock record --from URL --token T --out FILE');
	});
});

/** An HTTP server on 127.0.0.1 that logs each request it gets (path, Authorization, CONNECT lines and tunnelled bytes) and answers with `answer`; closed after the file. */
const servers: Array<ReturnType<typeof createHttpServer>> = [];
afterAll(async () => {
	await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});
async function logging(answer: (request: IncomingMessage, response: ServerResponse, port: number) => void) {
	const seen: string[] = [];
	const server = createHttpServer((request, response) => {
		seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? '-'}`);
		answer(request, response, port);
	});
	server.on('connect', (request: IncomingMessage, socket: Socket) => {
		seen.push(`CONNECT ${request.url}`);
		socket.on('data', (chunk: Buffer) => seen.push(`tunnelled: ${chunk.toString('latin1')}`));
		socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
	});
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { port, seen, url: `http://127.0.0.1:${port}` };
}
const redirectTo = (response: ServerResponse, location: string, status = 302) => {
	response.writeHead(status, { location, 'content-length': '0' });
	response.end();
};

describe('where the token goes: the nodes\' rule (contract/token-transport.ts)', () => {
	const TOKEN = 'record-origin-token-51c';
	const args = (from: string) => ['record', '--from', from, '--token', TOKEN, '--out', join(newDir(), 'clone.json')];
	/** Node's fetch and http use neither proxy variable unless told to: none of them set unless a test sets it. */
	const NO_PROXY_ENV = { HTTP_PROXY: undefined, http_proxy: undefined, NODE_USE_ENV_PROXY: undefined, NODE_OPTIONS: undefined };

	it('plain http:// to another machine: exit 2 before any call, naming the URL and https', async () => {
		const result = await run(args('http://api.remote.example/v2'));
		expect(result.status).toBe(2);
		expect(result.stderr.split('\n')[0]).toBe(
			'job-signals-mock record: --from http://api.remote.example/v2 uses plain http:// to api.remote.example, which is not this machine: the token would cross the network unencrypted, so nothing was sent. Use https:// (plain http:// only to 127.0.0.1, localhost or [::1])',
		);
		expect(result.stderr + result.stdout).not.toContain(TOKEN);
	});

	it('plain http:// to this machine while Node is told to use HTTP_PROXY (NODE_USE_ENV_PROXY=1, --use-env-proxy): exit 2, the proxy sees nothing', async () => {
		await paced.reset();
		const proxy = await logging((_, response) => {
			response.writeHead(502);
			response.end();
		});
		const cases: Array<[NodeJS.ProcessEnv, string]> = [
			[{ NODE_USE_ENV_PROXY: '1' }, 'NODE_USE_ENV_PROXY'],
			[{ NODE_OPTIONS: '--use-env-proxy' }, '--use-env-proxy'],
		];
		for (const [env, named] of cases) {
			const result = await run(args(upstream.apiUrl), { ...NO_PROXY_ENV, HTTP_PROXY: proxy.url, ...env });
			expect(result.status, named).toBe(2);
			expect(result.stderr.split('\n')[0], named).toBe(
				`job-signals-mock record: --from ${upstream.apiUrl} is plain http://, and ${named} make Node send it through the proxy in HTTP_PROXY, which would read the token: run record without ${named} (this machine needs no proxy), or use https://`,
			);
		}
		expect(proxy.seen).toEqual([]);
		expect(calls(upstream)).toEqual([]);
	});

	it('plain http:// to this machine with HTTP_PROXY set but not in use: the call goes straight to the service, the proxy sees nothing', async () => {
		await paced.reset();
		const proxy = await logging((_, response) => {
			response.writeHead(502);
			response.end();
		});
		// A token the upstream refuses: one call, exit 3.
		const result = await run(args(upstream.apiUrl), { ...NO_PROXY_ENV, HTTP_PROXY: proxy.url, http_proxy: proxy.url });
		expect(result.status).toBe(3);
		expect(calls(upstream)).toEqual([{ call: 'GET /v2/collections', status: 400 }]);
		expect(proxy.seen).toEqual([]);
	});

	it('a redirect to another port: exit 1 naming the target; nothing reaches it', async () => {
		const other = await logging((_, response) => response.end('{}'));
		const service = await logging((_, response) => redirectTo(response, `${other.url}/v2/collections`));
		const out = join(newDir(), 'clone.json');
		const result = await run(['record', '--from', `${service.url}/v2`, '--token', TOKEN, '--out', out]);
		expect(result.status).toBe(1);
		expect(oneLine(result.stderr).replace(/^job-signals-mock record: [^:]+: /, '')).toBe(
			`the API answered 302 with a redirect to ${other.url}/v2/collections, another origin than ${service.url}: the token goes to --from's origin only (a sub-domain, another port or http:// is another origin), so it was not followed; if the API has moved, give its new address to --from`,
		);
		// No page: nothing kept.
		expect(existsSync(`${out}.partial`)).toBe(false);
		expect(service.seen).toEqual([`GET /v2/collections Bearer ${TOKEN}`]);
		expect(other.seen).toEqual([]);
	});

	it('a redirect to a sub-domain (localhost → api.localhost, same port): exit 1, not followed', async () => {
		const service = await logging((_, response, port) => redirectTo(response, `http://api.localhost:${port}/v2/collections`, 301));
		const result = await run(args(`http://localhost:${service.port}/v2`));
		expect(result.status).toBe(1);
		expect(oneLine(result.stderr)).toContain(`the API answered 301 with a redirect to http://api.localhost:${service.port}/v2/collections, another origin than http://localhost:${service.port}:`);
		expect(service.seen).toHaveLength(1);
	});

	it(`redirects within the origin are followed with the token, ${MAX_REDIRECTS} in a row; the next is an error`, async () => {
		const hopOf = (request: IncomingMessage) => Number(new URL(request.url ?? '', 'http://x').searchParams.get('hop') ?? 0);
		// MAX_REDIRECTS hops, then the API's refusal of the token: exit 3, after every hop carried it.
		const ending = await logging((request, response) => {
			if (hopOf(request) < MAX_REDIRECTS) return redirectTo(response, `/v2/collections?hop=${hopOf(request) + 1}`, 307);
			response.writeHead(401, { 'content-type': 'application/json' });
			response.end('{"message":"Invalid API token"}');
		});
		const ended = await run(args(`${ending.url}/v2`));
		expect(ended.status).toBe(3);
		expect(ending.seen).toEqual(Array.from({ length: MAX_REDIRECTS + 1 }, (_, hop) => `GET /v2/collections${hop === 0 ? '' : `?hop=${hop}`} Bearer ${TOKEN}`));
		const endless = await logging((request, response) => redirectTo(response, `/v2/collections?hop=${hopOf(request) + 1}`));
		const looped = await run(args(`${endless.url}/v2`));
		expect(looped.status).toBe(1);
		expect(oneLine(looped.stderr)).toContain(`the API answered 302 with a redirect to ${endless.url}/v2/collections?hop=${MAX_REDIRECTS + 1} after ${MAX_REDIRECTS} redirects in a row, so it was not followed further`);
		expect(endless.seen).toHaveLength(MAX_REDIRECTS + 1);
	});
});
