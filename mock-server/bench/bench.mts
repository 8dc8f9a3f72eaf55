/**
 * `npm run bench:mock`: start-up time and memory of the default data set
 * (100,000 jobs, 100,000 signals), then requests per second and p50/p99
 * latency over real HTTP for three representative pages, each side by side
 * with a bare node:http server that answers the same precomputed bytes (the
 * ceiling on this machine). Then responsiveness: 50 clients each sending a
 * search no one sent before (none cached) next to 50 clients sending one
 * cached search, and cycles, each with the longest the mock's
 * event loop was held (monitorEventLoopDelay in the mock).
 * The mock and the bare server each run in their own process, so the load
 * generator here does not share their event loop.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { load, type LoadResult } from './bench-load.mts';
import { MOCK_CONTROL_PATHS } from '../src/base/contract.mts';
import { DEFAULT_OPTIONS } from '../src/options.mts';
import { startMockServer } from '../src/server.mts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const WARMUP_MS = 500;
const CONCURRENCY = [1, 8];
const SEARCH_CLIENTS = 50;
const CYCLES = 20;

type Message =
	| { kind: 'ready'; port: number; startMs?: number }
	| { kind: 'memory'; rssMb: number; peakRssMb: number; heapMb: number }
	| { kind: 'bodies'; bodies: Record<string, string> }
	| { kind: 'memory?' }
	| { kind: 'loop'; maxMs: number; p99Ms: number; cpuMs: number }
	| { kind: 'loop-reset' }
	| { kind: 'loop?' }
	| { kind: 'stop' };

const mb = (bytes: number) => Math.round(bytes / 1e6);

/** Child role: the mock with the default data set, rate limit off. */
async function runMock(): Promise<void> {
	const started = performance.now();
	const server = await startMockServer({ port: 0, rateLimit: 0 });
	const startMs = performance.now() - started;
	// 10 ms resolution: blocks of interest are 50 ms and more.
	const loop = monitorEventLoopDelay({ resolution: 10 });
	loop.enable();
	// CPU time the mock spends, which other processes on the machine do not inflate the way they inflate latency.
	let cpuFrom = process.cpuUsage();
	process.send?.({ kind: 'ready', port: Number(new URL(server.appUrl).port), startMs } satisfies Message);
	process.on('message', async (message: Message) => {
		if (message.kind === 'loop-reset') {
			loop.reset();
			cpuFrom = process.cpuUsage();
		}
		if (message.kind === 'loop?') {
			const cpu = process.cpuUsage(cpuFrom);
			process.send?.({ kind: 'loop', maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6, cpuMs: (cpu.user + cpu.system) / 1000 } satisfies Message);
		}
		if (message.kind === 'memory?') {
			const { heapUsed, rss } = process.memoryUsage();
			// maxRSS is in kibibytes.
			process.send?.({ kind: 'memory', rssMb: mb(rss), peakRssMb: mb(process.resourceUsage().maxRSS * 1024), heapMb: mb(heapUsed) } satisfies Message);
		}
		if (message.kind === 'stop') await server.close().then(() => process.exit(0));
	});
}

/** Child role: answers each known path with its precomputed bytes, nothing else. */
function runBare(): void {
	process.once('message', (message: Message) => {
		if (message.kind !== 'bodies') return;
		const bodies = new Map(Object.entries(message.bodies).map(([path, body]) => [path, Buffer.from(body)]));
		const server = createServer((req, res) => {
			const body = bodies.get(req.url ?? '');
			if (!body) return void res.writeHead(404).end();
			res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
		});
		server.listen(0, '127.0.0.1', () => process.send?.({ kind: 'ready', port: (server.address() as AddressInfo).port } satisfies Message));
		process.on('message', (m: Message) => m.kind === 'stop' && server.close(() => process.exit(0)));
	});
}

function next(child: ChildProcess, kind: Message['kind']): Promise<Message> {
	return new Promise((resolve, reject) => {
		const onMessage = (message: Message) => {
			if (message.kind !== kind) return;
			child.off('message', onMessage);
			resolve(message);
		};
		child.on('message', onMessage);
		child.once('exit', (code) => reject(new Error(`bench child exited (${code}) before "${kind}"`)));
	});
}

async function main(): Promise<void> {
	const self = import.meta.filename;
	const mock = fork(self, ['--role=mock'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
	const ready = (await next(mock, 'ready')) as Extract<Message, { kind: 'ready' }>;
	const base = `http://127.0.0.1:${ready.port}`;
	const auth = { authorization: `Bearer ${DEFAULT_OPTIONS.token}` };
	const fetchText = async (path: string) => {
		const response = await fetch(`${base}${path}`, { headers: auth });
		if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
		return response.text();
	};

	// The biggest source gives a cursor page that is full; its second page is the one measured.
	const sources = JSON.parse(await fetchText('/v2/collections/col_demo_1/sources')) as { data: { source_id: string; count_jobboard_jobs: number }[] };
	const biggest = sources.data.reduce((a, b) => (b.count_jobboard_jobs > a.count_jobboard_jobs ? b : a));
	const firstPage = JSON.parse(await fetchText(`/v2/sources/id/${biggest.source_id}/jobs`)) as { cursor_job_id?: string };
	const endpoints = {
		'signals, per_page=1000': '/v2/signals/problems?per_page=1000&direct_only=false&active_only=false',
		'jobs of a source, 2nd cursor page': `/v2/sources/id/${biggest.source_id}/jobs?cursor_job_id=${firstPage.cursor_job_id}`,
		'job search page (search, locations, offset)': `/v2/jobs?search=python%2Caws&locations=Europe&offset=100`,
	};
	const bodies: Record<string, string> = {};
	for (const path of Object.values(endpoints)) bodies[path] = await fetchText(path);

	const bare = fork(self, ['--role=bare'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
	bare.send({ kind: 'bodies', bodies } satisfies Message);
	const bareBase = `http://127.0.0.1:${((await next(bare, 'ready')) as Extract<Message, { kind: 'ready' }>).port}`;

	const rows: string[] = [];
	for (const [name, path] of Object.entries(endpoints)) {
		for (const concurrency of CONCURRENCY) {
			const expectedBytes = Buffer.byteLength(bodies[path]);
			const measure = async (origin: string): Promise<LoadResult> => {
				await load(`${origin}${path}`, auth, expectedBytes, concurrency, WARMUP_MS);
				return load(`${origin}${path}`, auth, expectedBytes, concurrency, DURATION_MS);
			};
			const m = await measure(base);
			const b = await measure(bareBase);
			const kb = Math.round(expectedBytes / 1000);
			rows.push(
				`| ${name} | ${kb} kB | ${concurrency} | ${m.rps.toFixed(0)} | ${m.p50.toFixed(1)} / ${m.p99.toFixed(1)} | ${b.rps.toFixed(0)} | ${b.p50.toFixed(1)} / ${b.p99.toFixed(1)} | ${((100 * m.rps) / b.rps).toFixed(0)} % |`,
			);
		}
	}
	const responsiveness = await measureResponsiveness(mock, base, auth, endpoints['job search page (search, locations, offset)'], Buffer.byteLength(bodies[endpoints['job search page (search, locations, offset)']]));
	mock.send({ kind: 'memory?' } satisfies Message);
	const memory = (await next(mock, 'memory')) as Extract<Message, { kind: 'memory' }>;
	mock.send({ kind: 'stop' } satisfies Message);
	bare.send({ kind: 'stop' } satisfies Message);

	console.log(`Mock server benchmark (node ${process.version}, ${DURATION_MS} ms per measurement after ${WARMUP_MS} ms warm-up, keep-alive clients)`);
	console.log(`Start-up, default data set (${DEFAULT_OPTIONS.sources} sources, ${DEFAULT_OPTIONS.jobs} jobs, ${DEFAULT_OPTIONS.signals} signals): ${Math.round(ready.startMs ?? 0)} ms`);
	console.log(`Memory of the mock after the run: RSS ${memory.rssMb} MB, peak RSS ${memory.peakRssMb} MB, heap used ${memory.heapMb} MB\n`);
	console.log('| endpoint | body | clients | mock req/s | mock p50 / p99 ms | bare req/s | bare p50 / p99 ms | mock / bare |');
	console.log('|---|---|---|---|---|---|---|---|');
	for (const row of rows) console.log(row);
	console.log(`\nResponsiveness (${SEARCH_CLIENTS} clients; the mock's CPU time per request; event loop: the longest and the p99 delay the mock's own loop saw, monitorEventLoopDelay at 10 ms resolution)\n`);
	console.log('| load | requests | req/s | p50 / p99 ms | mock CPU ms / request | event loop max / p99 ms |');
	console.log('|---|---|---|---|---|---|');
	for (const row of responsiveness) console.log(row);
}

/** Terms the generated jobs contain, combined into searches no client sent before (so none is cached). */
const TERMS = ['python', 'java', 'aws', 'senior', 'junior', 'remote', 'data', 'cloud', 'react', 'sql', 'kubernetes', 'devops', 'sales', 'design', 'security', 'go', 'lead', 'manager', 'analyst', 'engineer'];
const PLACES = ['', 'europe', 'berlin', 'north america', 'london', 'asia', 'paris', 'remote', 'germany', 'new york'];

function distinctSearches(base: string): () => string {
	const searches: string[] = [];
	for (const place of PLACES) {
		for (let a = 0; a < TERMS.length; a++) {
			for (let b = a + 1; b < TERMS.length; b++) {
				for (const search of [`${TERMS[a]},${TERMS[b]}`, `${TERMS[a]}+${TERMS[b]}`, `${TERMS[a]}|${TERMS[b]}`, `${TERMS[a]},-${TERMS[b]}`]) {
					searches.push(`${base}/v2/jobs?${new URLSearchParams({ search, locations: place, offset: '0' })}`);
				}
			}
		}
	}
	let i = 0;
	return () => {
		if (i === searches.length) throw new Error(`bench: all ${searches.length} distinct searches used; lower BENCH_DURATION_MS`);
		return searches[i++];
	};
}

const isSearchPage = (body: string) => {
	const page = JSON.parse(body) as { data?: unknown; metrics?: { count_jobs?: unknown } };
	return Array.isArray(page.data) && typeof page.metrics?.count_jobs === 'number' ? undefined : 'not a search page';
};

/** Distinct and cached searches with SEARCH_CLIENTS clients, then CYCLES cycles one after another; a table row each. */
async function measureResponsiveness(mock: ChildProcess, base: string, auth: Record<string, string>, cachedPath: string, cachedBytes: number): Promise<string[]> {
	const loopDuring = async <T,>(run: () => Promise<T>): Promise<{ result: T; loop: Extract<Message, { kind: 'loop' }> }> => {
		mock.send({ kind: 'loop-reset' } satisfies Message);
		const result = await run();
		mock.send({ kind: 'loop?' } satisfies Message);
		return { result, loop: (await next(mock, 'loop')) as Extract<Message, { kind: 'loop' }> };
	};
	const row = (name: string, r: LoadResult, loop: { maxMs: number; p99Ms: number; cpuMs: number }) =>
		`| ${name} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} | ${(loop.cpuMs / r.requests).toFixed(1)} | ${loop.maxMs.toFixed(0)} / ${loop.p99Ms.toFixed(0)} |`;
	const searches = distinctSearches(base);
	await load(searches, auth, isSearchPage, SEARCH_CLIENTS, WARMUP_MS);
	const distinct = await loopDuring(() => load(searches, auth, isSearchPage, SEARCH_CLIENTS, DURATION_MS));
	await load(`${base}${cachedPath}`, auth, cachedBytes, SEARCH_CLIENTS, WARMUP_MS);
	const cached = await loopDuring(() => load(`${base}${cachedPath}`, auth, cachedBytes, SEARCH_CLIENTS, DURATION_MS));
	const cycles = await loopDuring(async () => {
		const latencies: number[] = [];
		const started = performance.now();
		for (let i = 0; i < CYCLES; i++) {
			const t = performance.now();
			const response = await fetch(`${base}${MOCK_CONTROL_PATHS.process}`, { method: 'POST', headers: { 'content-type': 'application/json' } });
			if (response.status !== 200) throw new Error(`${MOCK_CONTROL_PATHS.process}: HTTP ${response.status}`);
			await response.arrayBuffer();
			latencies.push(performance.now() - t);
		}
		latencies.sort((a, b) => a - b);
		const elapsed = performance.now() - started;
		return { requests: CYCLES, rps: (CYCLES * 1000) / elapsed, p50: latencies[Math.floor(CYCLES / 2)], p99: latencies[CYCLES - 1] };
	});
	return [
		row(`job search, ${SEARCH_CLIENTS} clients, each request a search no one sent before (uncached)`, distinct.result, distinct.loop),
		row(`job search, ${SEARCH_CLIENTS} clients, one cached search (\`search=python,aws&locations=Europe&offset=100\`)`, cached.result, cached.loop),
		row(`\`POST /__mock/process\`, ${CYCLES} cycles one after another (p99 = the slowest)`, cycles.result, cycles.loop),
	];
}

const role = process.argv.find((a) => a.startsWith('--role='))?.slice('--role='.length);
const run = role === 'mock' ? runMock() : role === 'bare' ? Promise.resolve(runBare()) : main();
run.catch((error: unknown) => {
	console.error('bench:mock failed:', error);
	process.exit(1);
});
