/**
 * A server the Prism benchmark (prism.mts) starts as a child process: the mock's CLI or Prism, on a
 * free loopback port, in a process group of its own (stopping it stops whatever it started), with the
 * last of its output kept for error messages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface ChildServer {
	child: ChildProcess;
	/** The latest of what the process printed. */
	output(): string;
	/** SIGTERM to the group, SIGKILL after `graceMs`; resolves when it has exited. */
	stop(graceMs?: number): Promise<void>;
	exited: Promise<number | null>;
}

const OUTPUT_KEPT = 200_000;

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

export function startChildServer(command: string, args: string[]): ChildServer {
	const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	// The latest OUTPUT_KEPT characters, as chunks: a chatty process (Prism logs each request) costs a copy of each chunk, not of everything kept.
	const chunks: string[] = [];
	let kept = 0;
	const keep = (chunk: Buffer) => {
		const text = chunk.toString();
		chunks.push(text);
		kept += text.length;
		while (kept - chunks[0].length >= OUTPUT_KEPT) kept -= chunks.shift()!.length;
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	const signal = (name: NodeJS.Signals) => {
		try {
			process.kill(-child.pid!, name);
		} catch {
			// The group is already gone.
		}
	};
	return {
		child,
		output: () => chunks.join('').slice(-OUTPUT_KEPT),
		exited,
		async stop(graceMs = 10_000) {
			if (child.exitCode !== null || child.signalCode !== null) return;
			signal('SIGTERM');
			const timer = setTimeout(() => signal('SIGKILL'), graceMs);
			await exited;
			clearTimeout(timer);
		},
	};
}

/** Polls `url` (with `headers`, e.g. a token) until it answers 200, or throws once the process dies or time runs out. */
export async function waitForHttp(url: string, server: ChildServer, timeoutMs: number, headers: Record<string, string> = {}): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let dead = false;
	void server.exited.then(() => (dead = true));
	while (Date.now() < deadline && !dead) {
		try {
			const response = await fetch(url, { headers });
			if (response.ok) return;
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`${url} did not come up (${dead ? 'the process exited' : 'timeout'}). Its output:\n${server.output().slice(-4000)}`);
}
