/**
 * Memory of the webhook delivery queue when the receivers are down: 100
 * webhooks on the demo account pointing at a closed port, then CYCLES cycles
 * of 1,000 created jobs (POST /__mock/process), for one or more builds of the
 * mock side by side (before and after a change):
 *
 *   node mock-server/bench/delivery-queue-memory.mts NAME=DIST [NAME=DIST ...]
 *
 * Each build runs in its own child process (default data set, rate limit off,
 * time scale 1: the spec's one second between deliveries), started with
 * --expose-gc so the heap is read after a full collection. Printed per cycle:
 * RSS, heap after GC, deliveries queued (when the build can say) and the
 * delivery log's length. Node 24 runs this file as it is; it imports no mock code.
 */
import { buildsFromArgs } from './builds.mts';
import { freePort } from './child-server.mts';
import { runMemoryMock, startMemoryMock } from './memory-child.mts';
import { runRole } from './roles.mts';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 5);
const WEBHOOKS = 100;
const TOKEN = 'demo-token-job-signals';

interface Engine {
	queued?: () => number;
	deliveries(): readonly unknown[];
}

/** Child role: one build of the mock; what it has queued, when the build can say, and its delivery log's length. */
const runMock = (dist: string) =>
	runMemoryMock(dist, {}, ({ webhooks: { engine } }: { webhooks: { engine: Engine } }) => ({ queued: engine.queued?.() ?? null, logged: engine.deliveries().length }));

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
	const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
	if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
	return response;
}

async function main(): Promise<void> {
	const builds = buildsFromArgs('mock-server/bench/delivery-queue-memory.mts');
	const hook = `http://127.0.0.1:${await freePort()}/hook`;
	console.log(`${WEBHOOKS} webhooks to a closed port (${hook}), ${CYCLES} cycles of 1,000 created jobs`);
	for (const build of builds) {
		const mock = await startMemoryMock(process.argv[1], build);
		const line = async (label: string) => {
			const m = await mock.memory();
			console.log(`${build.name.padEnd(6)} ${label.padEnd(16)} RSS ${m.rssMb} MB, heap after GC ${m.heapMb} MB, queued ${m.facts.queued ?? 'n/a'}, log ${m.facts.logged}`);
		};
		await line('started');
		for (let i = 0; i < WEBHOOKS; i++) {
			await post(`${mock.appUrl}/api/webhooks`, { url: `${hook}/${i}`, event_types: ['job_created'] }, { authorization: `Bearer ${TOKEN}` });
		}
		for (let cycle = 1; cycle <= CYCLES; cycle++) {
			const t = performance.now();
			const answer = (await (await post(`${mock.appUrl}/__mock/process`, { created: 1000, updated: 0, deleted: 0, signals: 0 })).json()) as { events: unknown[] };
			await line(`cycle ${cycle} (${answer.events.length} ev, ${Math.round(performance.now() - t)} ms)`);
		}
		await new Promise((done) => setTimeout(done, 5000));
		await line('5 s later');
		await mock.stop();
	}
}

runRole(runMock, main);
