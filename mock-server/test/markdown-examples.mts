/**
 * The examples of a Markdown file that use the mock, and a way to run shell ones exactly as written
 * (readme-examples.test.mts). Which text is an example is decided by one rule, `examplesOf`:
 *  - a fenced block in bash/sh/shell that names the mock (`job-signals-mock`, `__mock`, `__admin`, port 4010);
 *  - a fenced block in js/ts/mjs/mts that imports `job-signals-mock-server`;
 *  - in any other fenced block (output samples, JSON), a line's `curl …` that names the mock;
 *  - an inline code span that starts with `curl `, `npx ` or `node_modules/.bin/` and names the mock.
 */
import { spawn } from 'node:child_process';

export interface Example {
	/** `README.md:123`: the file and the line the example starts on. */
	where: string;
	kind: 'shell' | 'code';
	text: string;
}

const NAMES_MOCK = /job-signals-mock|__mock|__admin|:4010\b|--port 4010\b/;
const SHELL = new Set(['bash', 'sh', 'shell']);
const CODE = new Set(['js', 'mjs', 'ts', 'mts', 'javascript', 'typescript']);
const IMPORTS_MOCK = /\bfrom\s+['"]job-signals-mock-server(?:\/[^'"]*)?['"]/;

/** Every example of the file that uses the mock, in the file's order. */
export function examplesOf(markdown: string, file: string): Example[] {
	const found: Example[] = [];
	let fence: { lang: string; line: number; indent: number; body: string[] } | undefined;
	markdown.split('\n').forEach((line, index) => {
		const where = `${file}:${index + 1}`;
		if (fence) {
			if (/^\s*```\s*$/.test(line)) {
				const text = fence.body.map((bodyLine) => bodyLine.slice(fence!.indent)).join('\n');
				const at = `${file}:${fence.line}`;
				if (SHELL.has(fence.lang)) {
					if (NAMES_MOCK.test(text)) found.push({ where: at, kind: 'shell', text });
				} else if (CODE.has(fence.lang)) {
					if (IMPORTS_MOCK.test(text)) found.push({ where: at, kind: 'code', text });
				} else {
					fence.body.forEach((bodyLine, i) => {
						const curl = /\bcurl\s.*$/.exec(bodyLine)?.[0];
						if (curl && NAMES_MOCK.test(curl)) found.push({ where: `${file}:${fence!.line + 1 + i}`, kind: 'shell', text: curl.trim() });
					});
				}
				fence = undefined;
			} else fence.body.push(line);
			return;
		}
		const open = /^(\s*)```(\w*)/.exec(line);
		if (open) {
			fence = { lang: open[2].toLowerCase(), line: index + 1, indent: open[1].length, body: [] };
			return;
		}
		for (const [, span] of line.matchAll(/`([^`]+)`/g)) {
			if (/^(curl |npx |node_modules\/\.bin\/)/.test(span) && NAMES_MOCK.test(span)) found.push({ where, kind: 'shell', text: span });
		}
	});
	return found;
}

/** A shell example's commands: its logical lines (a trailing `\` continues one), without blank and comment lines. */
export function commandsOf(script: string): string[] {
	const commands: string[] = [];
	let current = '';
	for (const line of script.split('\n')) {
		current = current ? `${current}\n${line}` : line;
		if (line.endsWith('\\')) continue;
		if (current.trim() !== '' && !current.trimStart().startsWith('#')) commands.push(current.trim());
		current = '';
	}
	return commands;
}

/** The HTTP status a command's own comment says it answers with, to show an error (`# → 403 …`), else undefined. */
export function shownError(command: string): number | undefined {
	const status = /\s#\s*→\s*([45]\d\d)\b/.exec(command)?.[1];
	return status === undefined ? undefined : Number(status);
}

/** A command that starts a mock server (it serves until stopped): the bin, through npx or not, but not its `record` or `check-drift` subcommand. */
export const startsMock = (command: string): boolean => /^(npx |node_modules\/\.bin\/)job-signals-mock\s(?!\s*(?:record|check-drift)\b)(?!.*--help)/.test(command);

/**
 * The command with the test's ports for the README's: each `127.0.0.1:N`, `localhost:N`, `--port N` and
 * `-p N` by `ports` (0, any free port, stays). A port the test does not map fails, so that no example
 * reaches for a service of this machine.
 */
export function withPorts(command: string, ports: ReadonlyMap<number, number>): string {
	return command.replace(/(127\.0\.0\.1:|localhost:|--port[ =]|\s-p )(\d+)\b/g, (whole, before: string, port: string) => {
		if (port === '0') return whole;
		const mapped = ports.get(Number(port));
		if (mapped === undefined) throw new Error(`port ${port} is not one the test maps (${[...ports.keys()].join(', ')}): ${command}`);
		return `${before}${mapped}`;
	});
}

export interface Step {
	command: string;
	/** The command's exit status. */
	status: number;
	/** The HTTP status of each request its curl calls made, in order (0: none answered). */
	http: number[];
	stdout: string;
	stderr: string;
}

/**
 * Runs the commands one after another in one bash (so a variable one sets is there for the next), each as
 * written, and says how each ended. `curl` is a function there that adds `--fail-with-body` (an HTTP error
 * status exits 22) and prints the status of each request to stderr, ahead of the command's own flags (a
 * `-w` of the command's own wins).
 */
export async function runCommands(commands: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Step[]> {
	const script = [
		'set -o pipefail',
		`curl() { command curl --fail-with-body --write-out '%{stderr}\\n@@http %{http_code}@@\\n' "$@"; }`,
		...commands.flatMap((command, i) => [`printf '\\n@@step ${i}@@\\n'; printf '\\n@@step ${i}@@\\n' >&2`, command, `printf '\\n@@status ${i} %d@@\\n' $? >&2`]),
	].join('\n');
	const { stdout, stderr } = await run('bash', ['-c', script], options);
	const part = (text: string, i: number) => text.split(`\n@@step ${i}@@\n`)[1]?.split(`\n@@step ${i + 1}@@\n`)[0] ?? '';
	return commands.map((command, i) => {
		const err = part(stderr, i);
		const status = /\n@@status \d+ (\d+)@@\n/.exec(err)?.[1];
		return {
			command,
			status: status === undefined ? -1 : Number(status),
			http: [...err.matchAll(/\n@@http (\d{3})@@\n/g)].map((m) => Number(m[1])),
			stdout: part(stdout, i).trim(),
			stderr: err.replace(/\n@@(http|status) [\d ]+@@\n/g, '\n').trim(),
		};
	});
}

/** Runs a program to its end, with its output (a non-zero exit is the caller's to judge). */
export function run(program: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(program, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		// A command that never ends (an example that serves) is stopped with its whole process group.
		const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), options.timeoutMs ?? 120_000);
		child.once('error', reject);
		child.once('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
	});
}

export interface StartedMock {
	/** Resolves with the app URL its banner printed (`http://127.0.0.1:PORT`); rejects when it exits first or prints none in time. */
	ready: Promise<string>;
	/** SIGTERM to its process group (npx, its shell and the mock), then the exit. */
	stop(): Promise<void>;
}

/**
 * Runs a command that starts a mock, in the background: `ready` once the mock prints its address. Not awaited
 * here, so that a full-size mock loads while other examples run.
 */
export function startMock(command: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): StartedMock {
	const child = spawn('bash', ['-c', command], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
		await exited;
	};
	const ready = new Promise<string>((resolve, reject) => {
		const fail = (why: string) => void stop().then(() => reject(new Error(`${command}: ${why}\n${output}`)));
		const timer = setTimeout(() => fail('printed no "App URL:" in time'), options.timeoutMs ?? 120_000);
		const read = () => {
			const appUrl = /^App URL: +(http:\/\/\S+)$/m.exec(output)?.[1];
			if (!appUrl) return;
			clearTimeout(timer);
			child.stdout.off('data', read);
			child.off('close', exitedFirst);
			resolve(appUrl);
		};
		const exitedFirst = () => {
			clearTimeout(timer);
			fail('exited before it served');
		};
		child.stdout.on('data', read);
		child.once('close', exitedFirst);
	});
	// Awaited by whoever needs the mock; a failure to start is theirs to report.
	ready.catch(() => undefined);
	return { ready, stop };
}
