/**
 * Child processes for the local n8n and the mock: each in its own process
 * group, so stopping one stops everything it started; their output is kept
 * for error messages and optionally shown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface Service {
	child: ChildProcess;
	label: string;
	/** Everything the process printed so far. */
	output(): string;
	/** SIGTERM to the group, SIGKILL after `graceMs`; resolves when it has exited. */
	stop(graceMs?: number): Promise<void>;
	/** SIGKILL to the group at once (`kill -9`: no shutdown code runs); resolves when it has exited. */
	kill(): Promise<void>;
	exited: Promise<number | null>;
}

const OUTPUT_KEPT = 200_000;

export function startService(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; echo?: boolean; label: string }): Service {
	const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	// The latest OUTPUT_KEPT characters, as chunks: a chatty process (Prism logs each request) costs a copy of each chunk, not of everything kept.
	const chunks: string[] = [];
	let kept = 0;
	const keep = (chunk: Buffer) => {
		const text = chunk.toString();
		chunks.push(text);
		kept += text.length;
		while (kept - chunks[0].length >= OUTPUT_KEPT) kept -= chunks.shift()!.length;
		if (options.echo) for (const line of text.split('\n').filter(Boolean)) console.log(`[${options.label}] ${line}`);
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	const running = () => child.exitCode === null && child.signalCode === null;
	const signal = (name: NodeJS.Signals) => {
		try {
			process.kill(-child.pid!, name);
		} catch {
			// The group is already gone.
		}
	};
	return {
		child,
		label: options.label,
		output: () => chunks.join('').slice(-OUTPUT_KEPT),
		exited,
		async stop(graceMs = 10_000) {
			if (!running()) return;
			signal('SIGTERM');
			const timer = setTimeout(() => signal('SIGKILL'), graceMs);
			await exited;
			clearTimeout(timer);
		},
		async kill() {
			if (!running()) return;
			signal('SIGKILL');
			await exited;
		},
	};
}

/**
 * How long a command may run: an n8n CLI command (import:credentials, publish:workflow) is a whole start of n8n, and
 * one took past 180 s at a load of 20–25; ten minutes, which only a command that hangs reaches.
 */
const RUN_COMMAND_TIMEOUT_MS = 600_000;

/**
 * Runs a command to its end and returns what it printed (n8n's CLI may crash on
 * exit after a good run: the caller reads the output). Standard output goes
 * through a file, not a pipe: `n8n execute` exits before a pipe's reader has
 * drained a result of several MB, and the rest is lost. Killed after `timeoutMs`, by default
 * RUN_COMMAND_TIMEOUT_MS.
 */
export function runCommand(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; stdoutFile: string }) {
	return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
		const stdoutFd = openSync(options.stdoutFile, 'w');
		const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', stdoutFd, 'pipe'] });
		closeSync(stdoutFd);
		let stderr = '';
		child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? RUN_COMMAND_TIMEOUT_MS);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout: readFileSync(options.stdoutFile, 'utf8'), stderr });
		});
	});
}

/**
 * Polls `probe` once a second until it gives a value (not undefined), and returns it; after `timeoutMs`, throws
 * naming `what`, with `explain()` (what the processes involved printed, say). An error `probe` throws ends the wait.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, explain: () => string): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s.\n${explain()}`);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/** Polls `url` (with `headers`, e.g. a token) until it answers 200 or the process dies or time runs out. */
export async function waitForHttp(url: string, service: Service, timeoutMs: number, headers: Record<string, string> = {}): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let dead = false;
	void service.exited.then(() => (dead = true));
	while (Date.now() < deadline && !dead) {
		try {
			const response = await fetch(url, { headers });
			if (response.ok) return;
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`${url} did not come up (${dead ? 'the process exited' : 'timeout'}). Its output:\n${service.output().slice(-4000)}`);
}
