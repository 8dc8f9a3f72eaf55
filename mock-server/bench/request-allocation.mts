/**
 * Bytes the mock allocates per normal request (what feeds V8's collector and
 * its pauses), for one or more builds side by side in one run:
 *
 *   node mock-server/bench/request-allocation.mts NAME=DIST [NAME=DIST ...]
 *
 * Each build runs in its own child process over HTTP (default data set, rate
 * limit off) with V8's sampling heap profiler on; the client is in the same
 * process, so its allocations count too (the same for every build). After
 * one warm-up request per path, REQUESTS requests cycle through the paths of
 * big-cycles.mts's normal clients. Printed per build: KB per request, and the
 * five functions that allocated most. Node 24 runs this file as it is; it
 * imports no mock code.
 */
import { fork } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { buildsFromArgs } from './builds.mts';
import { runRole } from './roles.mts';
import { TOKEN } from './watched-mock.mts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const PATHS = ['/v2/jobs/filters', '/v2/collections', '/v2/jobs?search=python', '/v2/signals/changes?per_page=100', '/v2/jobs?locations=berlin'];

interface ProfileNode {
	callFrame: { functionName: string; url: string; lineNumber: number };
	selfSize: number;
	children: ProfileNode[];
}

async function runMock(dist: string): Promise<void> {
	const { startMockServer } = (await import(resolve(dist, 'index.js'))) as { startMockServer: (o: object) => Promise<{ appUrl: string }> };
	const { appUrl } = await startMockServer({ port: 0, rateLimit: 0, cycleInterval: 0 });
	const get = async (path: string) => {
		const response = await fetch(`${appUrl}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
		if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
		await response.arrayBuffer();
	};
	for (const path of PATHS) await get(path);
	const session = new Session();
	session.connect();
	await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
	for (let i = 0; i < REQUESTS; i++) await get(PATHS[i % PATHS.length]);
	const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
	const bySite = new Map<string, number>();
	const visit = (node: ProfileNode) => {
		const { functionName, url, lineNumber } = node.callFrame;
		const site = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber}`;
		bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
		for (const child of node.children) visit(child);
	};
	visit(profile.head);
	const kb = (bytes: number) => (bytes / REQUESTS / 1024).toFixed(1);
	const total = [...bySite.values()].reduce((sum, n) => sum + n, 0);
	const top = [...bySite.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([site, n]) => `    ${kb(n).padStart(6)} KB ${site}`);
	process.send?.([`${kb(total)} KB per request`, ...top].join('\n'));
	process.exit(0);
}

async function main(): Promise<void> {
	const builds = buildsFromArgs('mock-server/bench/request-allocation.mts');
	console.log(`${REQUESTS} requests over ${PATHS.join(', ')}`);
	for (const build of builds) {
		const child = fork(process.argv[1], ['--mock', build.dist], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
		const report = await new Promise<string>((done) => child.once('message', (m) => done(String(m))));
		console.log(`${build.name}: ${report}`);
	}
}

runRole(runMock, main);
