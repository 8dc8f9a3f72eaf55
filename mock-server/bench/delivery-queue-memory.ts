/**
 * Memory of the webhook delivery queue when the receivers are down: 100
 * webhooks on the demo account pointing at a closed port, then CYCLES cycles
 * of 1,000 created jobs (POST /__mock/process), for one or more builds of the
 * mock side by side (before and after a change):
 *
 *   node mock-server/bench/delivery-queue-memory.ts NAME=DIST [NAME=DIST ...]
 *
 * Each build runs in its own child process (default data set, rate limit off,
 * time scale 1: the spec's one second between deliveries), started with
 * --expose-gc so the heap is read after a full collection. Printed per cycle:
 * RSS, heap after GC, deliveries queued (when the build can say) and the
 * delivery log's length. Node 24 runs this file as it is; it imports no mock code.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { buildsFromArgs } from './builds.ts';
import { runRole } from './roles.ts';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 5);
const WEBHOOKS = 100;
const TOKEN = 'demo-token-job-signals';

type Message =
	| { kind: 'ready'; port: number }
	| { kind: 'memory?' }
	| { kind: 'memory'; rssMb: number; heapMb: number; queued: number | null; logged: number }
	| { kind: 'stop' };

interface Engine {
	queued?: () => number;
	deliveries(): readonly unknown[];
}

/** Child role: one build of the mock. */
async function runMock(dist: string): Promise<void> {
	const { startMockServer } = (await import(resolve(dist, 'index.js'))) as {
		startMockServer: (o: object) => Promise<{ appUrl: string; service: { webhooks: { engine: Engine } } }>;
	};
	const server = await startMockServer({ port: 0, rateLimit: 0 });
	const { engine } = server.service.webhooks;
	process.send?.({ kind: 'ready', port: Number(new URL(server.appUrl).port) } satisfies Message);
	// The benchmark ended, however: this mock ends with it.
	process.once('disconnect', () => process.exit(0));
	process.on('message', (message: Message) => {
		if (message.kind === 'memory?') {
			(globalThis as { gc?: () => void }).gc?.();
			const { rss, heapUsed } = process.memoryUsage();
			process.send?.({ kind: 'memory', rssMb: Math.round(rss / 1e6), heapMb: Math.round(heapUsed / 1e6), queued: engine.queued?.() ?? null, logged: engine.deliveries().length } satisfies Message);
		}
		if (message.kind === 'stop') process.exit(0);
	});
}

async function closedPort(): Promise<number> {
	const probe = createServer();
	await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
	const { port } = probe.address() as { port: number };
	await new Promise((done) => probe.close(done));
	return port;
}

function ask(child: ChildProcess, message: Message): Promise<Extract<Message, { kind: 'memory' }>> {
	return new Promise((done) => {
		const on = (m: Message) => {
			if (m.kind !== 'memory') return;
			child.off('message', on);
			done(m);
		};
		child.on('message', on);
		child.send(message);
	});
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
	const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
	if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
	return response;
}

async function main(): Promise<void> {
	const builds = buildsFromArgs('mock-server/bench/delivery-queue-memory.ts');
	const hook = `http://127.0.0.1:${await closedPort()}/hook`;
	console.log(`${WEBHOOKS} webhooks to a closed port (${hook}), ${CYCLES} cycles of 1,000 created jobs`);
	for (const build of builds) {
		const child = fork(process.argv[1], ['--mock', build.dist], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: ['--expose-gc'] });
		const ready = (await new Promise<Message>((done) => child.once('message', done))) as Extract<Message, { kind: 'ready' }>;
		const appUrl = `http://127.0.0.1:${ready.port}`;
		const line = async (label: string) => {
			const m = await ask(child, { kind: 'memory?' });
			console.log(`${build.name.padEnd(6)} ${label.padEnd(16)} RSS ${m.rssMb} MB, heap after GC ${m.heapMb} MB, queued ${m.queued ?? 'n/a'}, log ${m.logged}`);
		};
		await line('started');
		for (let i = 0; i < WEBHOOKS; i++) {
			await post(`${appUrl}/api/webhooks`, { url: `${hook}/${i}`, event_types: ['job_created'] }, { authorization: `Bearer ${TOKEN}` });
		}
		for (let cycle = 1; cycle <= CYCLES; cycle++) {
			const t = performance.now();
			const answer = (await (await post(`${appUrl}/__mock/process`, { created: 1000, updated: 0, deleted: 0, signals: 0 })).json()) as { events: unknown[] };
			await line(`cycle ${cycle} (${answer.events.length} ev, ${Math.round(performance.now() - t)} ms)`);
		}
		await new Promise((done) => setTimeout(done, 5000));
		await line('5 s later');
		child.send({ kind: 'stop' } satisfies Message);
		await new Promise((done) => child.once('exit', done));
	}
}

runRole(runMock, main);
