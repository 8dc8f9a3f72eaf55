/**
 * `npm run bench:mock-prism`: the standalone mock (`mock-server/dist/cli.js`, default data, rate limit off)
 * against Stoplight Prism (`prism mock`, static examples) serving the OpenAPI document the mock itself
 * serves at `GET /openapi.json`: Prism as a tester starts it (its log at the default level, info, read
 * by this process as a terminal would) and Prism with its log off. Each is loaded by 10 keep-alive
 * connections with the same query and token: a 1,000-signal page, a job search and the collections list.
 * Prism serves the document's paths at its root (it ignores the servers' `/v2`), so the mock is asked
 * `/v2/signals/…` and Prism `/signals/…`.
 *
 * First, before Prism starts, a mock with 100 WireMock stubs that match none of the load shows what stubs cost the
 * requests they do not answer (goal: ≥ 0.95× the mock's requests per second, a ratio ≤ ×1.05): it, the mock and the
 * mock again (the control) are loaded at the same time, each by its own 10 connections, so whatever else the machine
 * does falls on all alike; each round gives a ratio, the summary their median. Then the same in one process, request
 * by request (stub-cost.mts).
 *
 * Each answer is checked against the contract once per server first (answer-checks.mts); during the load
 * every answer must have that length. The servers take turns, each round another one first, so a drift
 * in the machine's load falls on all alike; each round gives a ratio, the summary their median. Besides
 * wall-clock figures, each server's CPU time per request (its process's user + system time from /proc),
 * which other work on the machine moves less. The load generator runs in this process, on the same 2
 * cores as the servers.
 *
 *   BENCH_ROUNDS (default 5), BENCH_DURATION_MS (default 3000) per server and endpoint in each round;
 *   BENCH_STUB_ROUNDS (default 20) rounds of BENCH_STUB_ROUND_MS (default 1500) per endpoint for the stubs over HTTP,
 *   BENCH_IN_PROCESS_REQUESTS (default 2000) per mock and endpoint in one process.
 *
 * Node 24 runs this file as it is (type stripping); the mock's code comes from its build (dist/).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, startChildServer, waitForHttp, type ChildServer } from './child-server.mts';
import { checkAnswer, ENDPOINTS, type Verdict } from './answer-checks.mts';
import { load } from './bench-load.mts';
import { Report, StubsReport, type Measured } from './prism-report.mts';
import { installPrism, PRISM_VERSION } from './prism-install.mts';
import { inProcessCost, unmatchedStubs } from './stub-cost.mts';
import type * as Contract from '../src/contract.mts';
import type * as MockPackage from '../src/index.mts';

const CONNECTIONS = 10;
const WARMUP_MS = 500;

function setting(name: string, fallback: number, min: number): number {
	const text = process.env[name];
	if (text === undefined || text === '') return fallback;
	const value = Number(text);
	if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${text}"`);
	return value;
}

interface Server {
	name: string;
	/** The API's base URL: the mock's ends in /v2, Prism's is its root. */
	base: string;
	service: ChildServer;
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU time a process has used so far (ms), from /proc/PID/stat's utime and stime. */
function cpuMsOf(pid: number): number | undefined {
	try {
		// The fields after the command's closing parenthesis start at the 3rd (state); utime and stime are the 14th and 15th.
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
	} catch {
		return undefined;
	}
}

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

async function measure(server: Server, path: string, auth: Record<string, string>, bytes: number, durationMs: number): Promise<Measured> {
	const url = `${server.base}${path}`;
	await load(url, auth, bytes, CONNECTIONS, WARMUP_MS);
	const pid = server.service.child.pid!;
	const cpuBefore = cpuMsOf(pid);
	const clientBefore = process.cpuUsage();
	const result = await load(url, auth, bytes, CONNECTIONS, durationMs);
	const client = process.cpuUsage(clientBefore);
	const cpuAfter = cpuMsOf(pid);
	return {
		...result,
		cpuMsPerRequest: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / result.requests,
		clientCpuMsPerRequest: (client.user + client.system) / 1000 / result.requests,
	};
}

async function main(): Promise<void> {
	const rounds = setting('BENCH_ROUNDS', 5, 1);
	const durationMs = setting('BENCH_DURATION_MS', 3000, 100);
	const dist = resolve(import.meta.dirname, '../dist');
	if (!existsSync(join(dist, 'cli.js'))) throw new Error(`${dist}/cli.js is missing: build the mock first (npm run build -w mock-server; npm run bench:mock-prism does)`);
	const contract = (await import(join(dist, 'contract.js'))) as typeof Contract;
	const mockPackage = (await import(join(dist, 'index.js'))) as typeof MockPackage;
	const auth = { authorization: `Bearer ${mockPackage.DEFAULT_OPTIONS.token}` };
	const prismBin = installPrism();

	/**
	 * What 100 stubs cost the requests they do not answer: the mock, the same mock again (the control: how far two
	 * alike servers differ in this run) and the mock with the stubs, loaded at once, each by its own connections, so
	 * whatever else the machine does falls on all three alike; then the same in one process, request by request.
	 */
	async function stubsPart({ mock, again, stubbed }: { mock: Server; again: Server; stubbed: Server }): Promise<void> {
		for (const mapping of unmatchedStubs(contract.API_VERSION_SEGMENT, ENDPOINTS)) {
			const response = await fetch(`${new URL(stubbed.base).origin}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mapping) });
			if (response.status !== 201) throw new Error(`loading a stub: ${response.status} ${await response.text()}`);
		}
		const stubRounds = setting('BENCH_STUB_ROUNDS', 20, 1);
		const stubRoundMs = setting('BENCH_STUB_ROUND_MS', 1500, 100);
		const inProcessRequests = setting('BENCH_IN_PROCESS_REQUESTS', 2000, 10);
		const report = new StubsReport();
		report.header(`The mock vs the mock with 100 stubs (and the mock again, the control), ${new Date().toISOString()}, node ${process.version}, ${CONNECTIONS} keep-alive connections each, ${stubRounds} rounds of ${stubRoundMs} ms per endpoint with the three loaded at once, after ${WARMUP_MS} ms warm-up`, uptime());
		const mocks = [mock, again, stubbed];
		const bytes = new Map<string, number>();
		for (const endpoint of ENDPOINTS) {
			for (const server of mocks) {
				const response = await fetch(`${server.base}${endpoint.path}`, { headers: auth });
				const verdict = checkAnswer(endpoint, contract, response.status, await response.text());
				if (verdict.problems.length > 0) throw new Error(`${server.name} ${endpoint.path}: ${verdict.problems.join('; ')}`);
				bytes.set(`${endpoint.name} ${server.name}`, verdict.bytes);
			}
		}
		for (let round = 1; round <= stubRounds; round++) {
			for (const endpoint of ENDPOINTS) {
				const [mockMeasured, againMeasured, stubbedMeasured] = await Promise.all(mocks.map((server) => measure(server, endpoint.path, auth, bytes.get(`${endpoint.name} ${server.name}`)!, stubRoundMs)));
				report.round({ round, endpoint: endpoint.name, load1: loadavg()[0], mock: mockMeasured, again: againMeasured, stubbed: stubbedMeasured });
			}
		}
		report.summary(ENDPOINTS);
		report.inProcess(await inProcessCost(mockPackage, ENDPOINTS, (endpoint) => bytes.get(`${endpoint.name} ${mock.name}`)!, inProcessRequests));
	}

	const servers: Server[] = [];
	const folder = mkdtempSync(join(tmpdir(), 'job-signals-prism-'));
	const stopAll = () => Promise.all(servers.map((server) => server.service.stop()));
	const onSignal = (signal: NodeJS.Signals) => void stopAll().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		const startMock = async (name: string): Promise<Server> => {
			const port = await freePort();
			const service = startChildServer(process.execPath, [join(dist, 'cli.js'), '--port', String(port), '--rate-limit', '0']);
			const server = { name, base: `http://127.0.0.1:${port}${contract.API_VERSION_SEGMENT}`, service };
			servers.push(server);
			await waitForHttp(`http://127.0.0.1:${port}${contract.OPENAPI_DOCUMENT_PATH}`, service, 180_000);
			return server;
		};
		const mock = await startMock('mock');
		const documentUrl = `${new URL(mock.base).origin}${contract.OPENAPI_DOCUMENT_PATH}`;
		await stubsPart({ mock, again: await startMock('mock again'), stubbed: await startMock('mock, 100 stubs') });
		// The stubs' part is over: only the mock stays for Prism's.
		await Promise.all(servers.splice(1).map((server) => server.service.stop()));
		console.log(`\nuptime after the stubs' part: ${uptime()}\n`);

		const documentFile = join(folder, 'openapi.json');
		writeFileSync(documentFile, await (await fetch(documentUrl)).text());

		// Prism as a tester starts it, and without its log (6–7 lines per request at its default level, info; the mock logs no requests).
		for (const [name, flags] of [['Prism', []], ['Prism, log off', ['--verboseLevel', 'silent']]] as const) {
			const port = await freePort();
			const service = startChildServer(process.execPath, [prismBin, 'mock', '--host', '127.0.0.1', '--port', String(port), ...flags, documentFile]);
			servers.push({ name, base: `http://127.0.0.1:${port}`, service });
			// Every documented path answers 200 once Prism listens.
			await waitForHttp(`http://127.0.0.1:${port}${ENDPOINTS[0].path}`, service, 120_000, auth);
		}

		const verdicts = new Map<string, Verdict>();
		for (const endpoint of ENDPOINTS) {
			for (const server of servers) {
				const response = await fetch(`${server.base}${endpoint.path}`, { headers: auth });
				const verdict = checkAnswer(endpoint, contract, response.status, await response.text());
				if (verdict.problems[0]?.startsWith('HTTP')) throw new Error(`${server.name} ${endpoint.path}: ${verdict.problems[0]}; nothing to load`);
				verdicts.set(`${endpoint.name} ${server.name}`, verdict);
			}
		}

		const report = new Report(servers.map((s) => s.name), verdicts);
		report.header(`Mock vs Prism ${PRISM_VERSION}, ${new Date().toISOString()}, node ${process.version}, ${CONNECTIONS} keep-alive connections, ${rounds} rounds of ${durationMs} ms per server and endpoint after ${WARMUP_MS} ms warm-up`, uptime());
		for (let round = 1; round <= rounds; round++) {
			// Each round another server goes first.
			const shift = (round - 1) % servers.length;
			const order = [...servers.slice(shift), ...servers.slice(0, shift)];
			for (const endpoint of ENDPOINTS) {
				const measured = new Map<string, Measured>();
				for (const server of order) measured.set(server.name, await measure(server, endpoint.path, auth, verdicts.get(`${endpoint.name} ${server.name}`)!.bytes, durationMs));
				report.round({ round, endpoint: endpoint.name, first: order[0].name, load1: loadavg()[0], measured });
			}
		}
		report.answers(ENDPOINTS);
		report.summary(ENDPOINTS, rounds);
		console.log(`\nuptime at the end: ${uptime()}`);
	} finally {
		await stopAll();
		rmSync(folder, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error('bench:mock-prism failed:', error instanceof Error ? error.message : error);
	process.exit(1);
});
