/**
 * Every example in README.md and docs/*.md that uses the mock runs as written, with only its ports changed
 * (mock-server/README.md's examples: mock-server/test/readme-examples.test.mts, which runs them in projects that
 * install the packed package; its helpers are the mock's own and this folder may not import them, so the same
 * rule is restated here, for what these files hold).
 *
 * An example is: a bash/sh block that names the mock (`job-signals-mock`, `__mock`, `__admin`, port 4010); a
 * `curl …` naming it on a line of any other block (an output sample that shows a command); an inline code span
 * that starts with `curl `, `npx ` or `node_modules/.bin/` and names it; a js/ts block that imports `job-signals-mock-server` (these run
 * only in the mock's README, so here one fails). The first `npx job-signals-mock …` line starts the mock every
 * later example's 4010 reaches (from the repository's root, where npx finds the workspace's bin: needs
 * `npm run build -w mock-server`, which npm test runs). Each curl must answer no HTTP error, unless its comment
 * shows one (`# → 403 …`). NOT_RUN lists what cannot run as written, with why.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRepoFile, REPO_ROOT } from './markdown.mts';
import { freePort } from '../../harness/n8n/ports.mts';

const FILES = ['README.md', ...readdirSync(`${REPO_ROOT}/docs`).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];

const NOT_RUN: { text: string; why: string }[] = [
	{
		text: 'npx job-signals-mock-server --port <free port>',
		why: 'the release check of the published package (npx downloads it from the registry; the port is a placeholder); the packed package runs in mock-server/test/readme-examples.test.mts',
	},
];

interface Example {
	where: string;
	kind: 'shell' | 'code';
	text: string;
}

const NAMES_MOCK = /job-signals-mock|__mock|__admin|:4010\b|--port 4010\b/;

function examplesOf(file: string): Example[] {
	const found: Example[] = [];
	let fence: { lang: string; line: number; body: string[] } | undefined;
	readRepoFile(file).split('\n').forEach((line, index) => {
		if (fence) {
			if (!/^\s*```\s*$/.test(line)) return void fence.body.push(line);
			const text = fence.body.join('\n');
			const where = `${file}:${fence.line}`;
			if (['bash', 'sh', 'shell'].includes(fence.lang)) {
				if (NAMES_MOCK.test(text)) found.push({ where, kind: 'shell', text });
			} else if (['js', 'mjs', 'ts', 'mts', 'javascript', 'typescript'].includes(fence.lang)) {
				if (/\bfrom\s+['"]job-signals-mock-server/.test(text)) found.push({ where, kind: 'code', text });
			} else {
				fence.body.forEach((bodyLine, i) => {
					const curl = /\bcurl\s.*$/.exec(bodyLine)?.[0];
					if (curl && NAMES_MOCK.test(curl)) found.push({ where: `${file}:${fence!.line + 1 + i}`, kind: 'shell', text: curl.trim() });
				});
			}
			fence = undefined;
			return;
		}
		const open = /^\s*```(\w*)/.exec(line);
		if (open) return void (fence = { lang: open[1].toLowerCase(), line: index + 1, body: [] });
		for (const [, span] of line.matchAll(/`([^`]+)`/g)) {
			if (/^(curl |npx |node_modules\/\.bin\/)/.test(span) && NAMES_MOCK.test(span)) found.push({ where: `${file}:${index + 1}`, kind: 'shell', text: span });
		}
	});
	return found;
}

const EXAMPLES = FILES.flatMap(examplesOf);

/** A shell example's commands: its logical lines, without blank and comment lines. */
const commandsOf = (script: string): string[] =>
	script.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));

function withPorts(command: string, ports: ReadonlyMap<number, number>): string {
	return command.replace(/(127\.0\.0\.1:|localhost:|--port[ =])(\d+)\b/g, (whole, before: string, port: string) => {
		if (port === '0') return whole;
		const mapped = ports.get(Number(port));
		if (mapped === undefined) throw new Error(`port ${port} is not one the test maps: ${command}`);
		return `${before}${mapped}`;
	});
}

let env: NodeJS.ProcessEnv;
const ports = new Map<number, number>();
let stopMock: (() => Promise<void>) | undefined;
const used = new Set<string>();

/** Starts the mock a command starts (in the background, its own process group), once it prints its address. */
function startMock(command: string): Promise<void> {
	const child = spawn('bash', ['-c', command], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
	stopMock = async () => {
		if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
		await closed;
	};
	let output = '';
	return new Promise((resolve, reject) => {
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			if (/^App URL: +http:\/\/\S+$/m.test(output)) resolve();
		});
		void closed.then(() => reject(new Error(`${command} exited before it served:\n${output}`)));
	});
}

/** Runs one command as written in bash (curl fails on an HTTP error and prints each status to stderr): its exit and statuses. */
function runCommand(command: string): Promise<{ status: number | null; http: number[]; output: string }> {
	const script = `set -o pipefail\ncurl() { command curl --fail-with-body --write-out '%{stderr}\\n@@http %{http_code}@@\\n' "$@"; }\n${command}`;
	const child = spawn('bash', ['-c', script], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	// The statuses are read from stderr alone: interleaved with stdout's chunks, a status line could be cut in two.
	let errors = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => {
		errors += chunk.toString();
		output += chunk.toString();
	});
	return new Promise((resolve) =>
		child.once('close', (status) => resolve({ status, http: [...errors.matchAll(/\n@@http (\d{3})@@\n/g)].map((m) => Number(m[1])), output })),
	);
}

beforeAll(() => {
	env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD'));
	env.PATH = [dirname(process.execPath), `${REPO_ROOT}/node_modules/.bin`, process.env.PATH].join(delimiter);
});
afterAll(async () => {
	await stopMock?.();
});

describe('README.md and docs/: every example that uses the mock runs as written', () => {
	it('finds the examples, and none of them is code (in-process code runs in mock-server/README.md, where a project installs the package)', () => {
		expect(EXAMPLES.filter((e) => e.kind === 'shell').length).toBeGreaterThanOrEqual(4);
		expect(EXAMPLES.filter((e) => e.kind === 'code').map((e) => e.where)).toEqual([]);
	});

	for (const example of EXAMPLES.filter((e) => e.kind === 'shell')) {
		it(`${example.where}: ${commandsOf(example.text)[0]?.slice(0, 90)}`, async () => {
			for (const command of commandsOf(example.text)) {
				const skip = NOT_RUN.find((entry) => command.includes(entry.text));
				if (skip) {
					used.add(skip.text);
					continue;
				}
				if (/^(npx |node_modules\/\.bin\/)job-signals-mock\s(?!\s*record\b)/.test(command)) {
					expect(stopMock, `${example.where}: a second mock (only the first start line runs here)`).toBeUndefined();
					ports.set(4010, await freePort());
					await startMock(withPorts(command, ports));
					continue;
				}
				const result = await runCommand(withPorts(command, ports));
				const what = `${example.where}: ${command}\nexit ${result.status}, HTTP ${result.http.join(', ')}\n${result.output.slice(0, 2000)}`;
				const shown = /\s#\s*→\s*([45]\d\d)\b/.exec(command)?.[1];
				if (shown) {
					expect(result.status, what).toBe(22);
					expect(result.http, what).toContain(Number(shown));
					continue;
				}
				expect(result.status, what).toBe(0);
				if (/(^|[\s|(])curl\s/.test(command)) expect(result.http.length, what).toBeGreaterThan(0);
				for (const status of result.http) expect(status >= 200 && status < 400, what).toBe(true);
			}
		}, 120_000);
	}

	it('every entry of NOT_RUN names a command of the files (none is left over)', () => {
		expect(NOT_RUN.map((entry) => entry.text).filter((text) => !used.has(text))).toEqual([]);
	});
});
