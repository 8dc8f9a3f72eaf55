/**
 * `npm run bench:mock`: start-up time and memory of the default data set
 * (100,000 jobs, 100,000 signals), then requests per second and p50/p99
 * latency over real HTTP for three representative pages, each side by side
 * with a bare node:http server that answers the same precomputed bytes (the
 * ceiling on this machine). The mock and the bare server each run in their
 * own process, so the load generator here does not share their event loop.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { load, type LoadResult } from './bench-load';
import { DEFAULT_OPTIONS } from './options';
import { startMockServer } from './server';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const WARMUP_MS = 500;
const CONCURRENCY = [1, 8];

type Message =
	| { kind: 'ready'; port: number; startMs?: number }
	| { kind: 'memory'; rssMb: number; peakRssMb: number; heapMb: number }
	| { kind: 'bodies'; bodies: Record<string, string> }
	| { kind: 'memory?' }
	| { kind: 'stop' };

const mb = (bytes: number) => Math.round(bytes / 1e6);

/** Child role: the mock with the default data set, rate limit off. */
async function runMock(): Promise<void> {
	const started = performance.now();
	const server = await startMockServer({ port: 0, rateLimit: 0 });
	const startMs = performance.now() - started;
	process.send?.({ kind: 'ready', port: Number(new URL(server.appUrl).port), startMs } satisfies Message);
	process.on('message', async (message: Message) => {
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
}

const role = process.argv.find((a) => a.startsWith('--role='))?.slice('--role='.length);
const run = role === 'mock' ? runMock() : role === 'bare' ? Promise.resolve(runBare()) : main();
run.catch((error: unknown) => {
	console.error('bench:mock failed:', error);
	process.exit(1);
});
