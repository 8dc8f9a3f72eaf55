// Every example of mock-server/README.md that uses the mock (the rule: markdown-examples.mts, `examplesOf`) runs
// as written, as a user of the package runs it: in scratch projects that install the packed tarball, one with
// npm and one with pnpm, by the README's own install lines. Only ports change (4010 and the rest, to free ones).
//  - Shell examples run in the npm project, in document order. The first line that starts a mock
//    (`npx job-signals-mock …`) starts the mock every later example's 4010 reaches (a later start line that
//    differs from it only in the port is that mock); another start line starts a mock for its own example (its
//    ports fresh), stopped when the example ends. 8080, the webhook example's receiver, is one the test runs.
//    Each curl must answer no HTTP error, unless its comment shows one (`# → 403 …`): then it must answer that one.
//  - JS/TS examples run with Node in both projects (their `// value` comments after console.log are checked
//    against what they print), then type-check against the package's declarations.
//  - NOT_RUN lists what cannot run as written, each with why; anything else that uses the mock runs.
// Needs `npm run build -w mock-server` first (npm test does); packs dist/ with `npm pack`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.mts';
import { commandsOf, examplesOf, run, runCommands, shownError, startMock, startsMock, withPorts, type Example, type StartedMock, type Step } from './markdown-examples.mts';

const MOCK = join(__dirname, '..');
const FILE = 'mock-server/README.md';
const EXAMPLES = examplesOf(readFileSync(join(MOCK, 'README.md'), 'utf8'), FILE);
const require = createRequire(import.meta.url);

/** What is not run as written, and why (matched against each command of a shell example, and each code example). */
const NOT_RUN: { text: string; why: string; check?: (command: string) => void }[] = [
	{
		text: 'npm run mock -- ',
		why: 'from this repository, not a project that installed the package: it builds the package (npm run build -w mock-server), then starts the built CLI, as the `npx job-signals-mock` lines here do',
	},
	{
		text: 'docker ',
		why: 'needs a container engine and the published image; the image is built from the packed package and run with these flags, port and volume (podman) in the repository\'s test/e2e/mock-image.e2e.test.mts',
	},
	{
		text: 'npx @stoplight/prism-cli@',
		why: "Prism, another project's server, which npx downloads and which serves until stopped; what it serves is checked: the document it names is in the installed package",
		check: (command) => {
			const document = /\S+\.json$/.exec(command)?.[0] ?? '';
			expect(existsSync(join(project.npm, document)), `${command}: ${document} is not in a project that installed the package`).toBe(true);
		},
	},
];

/** What a command must print (its stdout), besides succeeding: the README's own words about the answer. */
const OUTPUTS: { command: string; output: RegExp }[] = [
	{ command: 'record --from', output: /^Wrote clone\.json: 2 collections, 225 sources, 579 jobs, 2212 signals \(15 pages;/m },
	{ command: 'check-drift --from', output: /^the answers fit the contract \(5 pages checked\)$/m },
	{ command: '4011/v2/collections', output: /"collection_id":"col_volume_1".*"collection_id":"col_volume_2"/s },
	{ command: 'serach=engineer', output: /^x-mock-warning: unknown query parameter "serach"; known: search, locations,/im },
	{ command: 'curl http://127.0.0.1:4010/v2/jobs/job_stub', output: /^\{"job_id":"job_stub","job_title":"Stubbed"\}$/ },
	{ command: `/__admin/requests/count -H 'Content-Type: application/json' -d '{"method": "GET"`, output: /^\{"count":1,"requestJournalDisabled":false\}$/ },
	{ command: '/__admin/requests/unmatched/near-misses', output: /^\{"nearMisses":\[\{"request":\{.*"url":"\/todo\/items".*"stubMapping":\{.*"name":"add milk".*"matchResult":\{"distance":0\.07142857142857142\}\}\]\}$/ },
	{ command: '/__admin/near-misses/request-pattern', output: /^\{"nearMisses":\[\{"request":\{.*"url":"\/todo\/items".*"body":"eggs".*"requestPattern":\{"method":"POST","urlPath":"\/todo\/items","bodyPatterns":\[\{"contains":"milk"\}\]\},"matchResult":\{"distance":0\.07142857142857142\}\}\]\}$/ },
	{ command: `{"headers": {"Authorization": {"equalTo"`, output: /^\{"count":0,"requestJournalDisabled":false,"warnings":\["authorization is journaled redacted/ },
	{ command: 'curl http://127.0.0.1:4010/__mock/clock', output: /"now":"2027-01-01T09:00:02\.000Z".*"frozen":true/ },
	{ command: 'curl http://127.0.0.1:4010/__mock/faults', output: /^\{"faults":\[\{"path":"\/v2\/jobs","status":503,.*"remaining":null\},\{"path":"\/v2\/jobs\/filters","status":500,.*"times":1,"remaining":0\}\]\}$/ },
	{ command: 'curl http://127.0.0.1:4010/__admin/health', output: /^\{"status":"healthy","message":"job-signals-mock-server is ok","version":"\d+\.\d+\.\d+","uptimeInSeconds":\d+,"timestamp":"\d{4}-\d\d-\d\dT[\d:.]+Z"\}$/ },
	// The front door: links at the test's port, the README in the installed package (the packed package.json has no repository).
	{ command: 'curl -s http://127.0.0.1:4010/ ', output: /^\{"name":"job-signals-mock-server","version":"[^"]+","page":"http:\/\/127\.0\.0\.1:\d+\/__mock\/ui","openapi":"http:\/\/127\.0\.0\.1:\d+\/openapi\.json",.*"readme":null,"readme_file":"[^"]*\/node_modules\/job-signals-mock-server\/README\.md"\}$/ },
	{ command: 'status=4xx,5xx&limit=20', output: /^\{"data":\[.*\],"dropped":\d+\}$/s },
	{ command: 'deliveries?limit=100', output: /^\{"data":\[.*\]\}$/s },
];

const notRun = (text: string) => NOT_RUN.find((entry) => text.includes(entry.text));
const used = new Set<string>();

const project = { npm: '', pnpm: '' };
const installed = { npm: false, pnpm: false };
let scratch: string;
let tarball: string;
let env: NodeJS.ProcessEnv;
let receiver: Server;
let received = 0;
let shared: { command: string; mock: StartedMock } | undefined;
const ports = new Map<number, number>();
const codeFiles: string[] = [];

beforeAll(async () => {
	if (!existsSync(join(MOCK, 'dist/index.js'))) throw new Error('mock-server/dist is missing: run `npm run build -w mock-server` first (npm test does)');
	// The package managers as a user's shell has them, without the npm_* settings of the npm that runs this test;
	// pnpm, pinned among the mock's devDependencies, from its bin beside it in node_modules/.bin.
	const pnpmBin = join(dirname(require.resolve('pnpm')), '..', '.bin');
	env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD'));
	env.PATH = [dirname(process.execPath), pnpmBin, process.env.PATH].join(delimiter);
	// npx asks before it downloads a package an example runs (openapi-typescript): the answer a user gives.
	env.npm_config_yes = 'true';
	scratch = mkdtempSync(join(tmpdir(), 'mock-readme-'));
	const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: MOCK, env, encoding: 'utf8' })) as { filename: string }[];
	tarball = join(scratch, packed.filename);
	for (const manager of ['npm', 'pnpm'] as const) {
		project[manager] = join(scratch, manager);
		mkdirSync(project[manager]);
		writeFileSync(join(project[manager], 'package.json'), JSON.stringify({ name: `readme-examples-${manager}`, private: true }));
		// Only the npm registry is reachable in CI: take what the cache has.
		writeFileSync(join(project[manager], '.npmrc'), 'prefer-offline=true\naudit=false\nfund=false\nupdate-notifier=false\n');
	}
	receiver = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			received++;
			response.end();
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	ports.set(8080, (receiver.address() as AddressInfo).port);
}, 60_000);

afterAll(async () => {
	await shared?.mock.stop();
	if (receiver) await new Promise((resolve) => receiver.close(resolve));
	if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** `npm install …` / `pnpm add …` of the package: run in that manager's project, the tarball for the package's name. */
async function install(command: string): Promise<void> {
	const manager = command.startsWith('pnpm ') ? 'pnpm' : 'npm';
	const withTarball = command.replace(/(?<![\w/.-])job-signals-mock-server(?![\w/.-])/g, tarball);
	const result = await run('bash', ['-c', withTarball], { cwd: project[manager], env });
	if (result.code !== 0) throw new Error(`${command}: exit ${result.code}\n${result.stdout}\n${result.stderr}`);
	installed[manager] = true;
}

/** A start line without its port: two that differ only there start the same mock (npx runs node_modules/.bin's). */
const unported = (command: string) => command.replace(/\s+#.*$/, '').replace(/--port[ =]\d+/, '--port').replace(/^node_modules\/\.bin\//, 'npx ');

/**
 * Runs a shell example's commands; returns each command's end. The install lines run side by side (each in its
 * own project), finished before the next command. A mock the example starts must serve before the commands after
 * it run, and is stopped when the example ends; the first mock started (the shared one) is awaited only by the
 * commands that reach it, so that it loads while the examples before them run, and a later start line that
 * differs from its only in the port is that mock (the port is the one thing an example may change).
 */
async function runShell(example: Example): Promise<Step[]> {
	const mine = new Map(ports);
	const own: StartedMock[] = [];
	const installs: Promise<void>[] = [];
	const steps: Step[] = [];
	let pending: string[] = [];
	const flush = async () => {
		await Promise.all(installs);
		if (pending.length === 0) return;
		await Promise.all(own.map((mock) => mock.ready));
		const sharedPort = shared && ports.get(4010);
		if (pending.some((command) => withPorts(command, mine).includes(`:${sharedPort}`))) await shared!.mock.ready;
		steps.push(...(await runCommands(pending.map((command) => withPorts(command, mine)), { cwd: project.npm, env })).map((step, i) => ({ ...step, command: pending[i] })));
		pending = [];
	};
	try {
		for (const command of commandsOf(example.text)) {
			const skip = notRun(command);
			if (skip) {
				used.add(skip.text);
				skip.check?.(command);
			} else if (/^(npm install|npm i|pnpm add) .*job-signals-mock-server/.test(command)) {
				installs.push(install(command));
			} else if (startsMock(command)) {
				await flush();
				if (shared && unported(command) === unported(shared.command)) {
					// The same program: what npx would run is there.
					const program = command.split(' ')[0];
					if (program.includes('/')) expect(existsSync(join(project.npm, program)), `${example.where}: ${program}`).toBe(true);
					await shared.mock.ready;
					continue;
				}
				const named = [...command.matchAll(/(?:127\.0\.0\.1:|--port[ =])(\d+)/g)].map((m) => Number(m[1])).filter((port) => port !== 0);
				for (const port of named) mine.set(port, await freePort());
				const started = startMock(withPorts(command, mine), { cwd: project.npm, env });
				if (shared) own.push(started);
				else {
					// The first mock started serves every later example.
					shared = { command, mock: started };
					for (const port of named) ports.set(port, mine.get(port)!);
				}
			} else pending.push(command);
		}
		await flush();
		await Promise.all(own.map((mock) => mock.ready));
	} finally {
		await Promise.allSettled(installs);
		await Promise.all(own.map((mock) => mock.stop()));
	}
	return steps;
}

function expectSucceeded(example: Example, step: Step): void {
	const what = `${example.where}: ${step.command}\nexit ${step.status}, HTTP ${step.http.join(', ')}\n${step.stdout.slice(0, 2000)}\n${step.stderr.slice(0, 2000)}`;
	const error = shownError(step.command);
	if (error !== undefined) {
		expect(step.status, what).toBe(22);
		expect(step.http, what).toContain(error);
		return;
	}
	expect(step.status, what).toBe(0);
	if (/(^|[\s|(])curl\s/.test(step.command)) expect(step.http.length, `${what}: no request was made`).toBeGreaterThan(0);
	for (const status of step.http) expect(status >= 200 && status < 400, what).toBe(true);
	for (const { command, output } of OUTPUTS.filter((entry) => step.command.includes(entry.command))) {
		used.add(command);
		expect(step.stdout, what).toMatch(output);
	}
}

/** The lines a code example's `console.log(…); // value` comments say it prints. */
const printed = (code: string): string[] => [...code.matchAll(/console\.log\(.*\);\s*\/\/\s*([{[\d'"].*?)\s*$/gm)].map((m) => m[1]);

async function runCode(example: Example): Promise<void> {
	const name = `example-${example.where.replace(/\W+/g, '-')}.mts`;
	for (const manager of ['npm', 'pnpm'] as const) {
		expect(installed[manager], `no README line before ${example.where} installs the package with ${manager}`).toBe(true);
		writeFileSync(join(project[manager], name), example.text);
		const result = await run(process.execPath, [name], { cwd: project[manager], env, timeoutMs: 60_000 });
		const what = `${example.where} under ${manager}: exit ${result.code}\n${result.stdout}\n${result.stderr}`;
		expect(result.code, what).toBe(0);
		const lines = result.stdout.split('\n');
		for (const line of printed(example.text)) expect(lines, what).toContain(line);
	}
	codeFiles.push(name);
}

describe(`${FILE}: every example that uses the mock runs as written`, () => {
	it('finds the examples (the install lines, curl lines, the in-process code)', () => {
		expect(EXAMPLES.filter((e) => e.kind === 'code').length).toBeGreaterThanOrEqual(2);
		expect(EXAMPLES.filter((e) => e.kind === 'shell').length).toBeGreaterThanOrEqual(8);
	});

	for (const example of EXAMPLES) {
		const title = `${example.where}: ${example.text.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#') && !line.startsWith('import '))?.slice(0, 90)}`;
		it(title, async () => {
			if (example.kind === 'code') {
				const skip = notRun(example.text);
				if (skip) used.add(skip.text);
				else await runCode(example);
				return;
			}
			for (const step of await runShell(example)) expectSucceeded(example, step);
		}, 180_000);
	}

	it('the TypeScript examples type-check against the package\'s declarations', async () => {
		expect(codeFiles.length).toBe(EXAMPLES.filter((e) => e.kind === 'code' && !notRun(e.text)).length);
		const tsc = require.resolve('typescript/bin/tsc');
		const typeRoots = dirname(dirname(require.resolve('@types/node/package.json')));
		const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2023', '--skipLibCheck', '--types', 'node', '--typeRoots', typeRoots];
		const result = await run(process.execPath, [tsc, ...flags, ...codeFiles], { cwd: project.npm, env, timeoutMs: 90_000 });
		expect(`${result.stdout}${result.stderr}`).toBe('');
		expect(result.code).toBe(0);
	}, 120_000);

	it('the install lines installed the package with npm and with pnpm, the shared mock served, and the webhook example reached its receiver', async () => {
		expect(installed).toEqual({ npm: true, pnpm: true });
		await expect(shared?.mock.ready).resolves.toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(received).toBeGreaterThan(0);
	});

	it('every entry of NOT_RUN and OUTPUTS names a command of the README (none is left over)', () => {
		expect(NOT_RUN.map((entry) => entry.text).filter((text) => !used.has(text))).toEqual([]);
		expect(OUTPUTS.map((entry) => entry.command).filter((command) => !used.has(command))).toEqual([]);
	});
});
