/**
 * A benchmark's child role: one build of the mock over HTTP, its event loop
 * watched, and the parent's side of asking it. The longest block is read three
 * ways: wall-clock (monitorEventLoopDelay, which a busy machine stretches), the
 * main thread's CPU time between two ticks of a 2 ms timer (what the mock itself
 * held the loop for), and the longest garbage-collection pause (V8's, not the
 * mock's code). Node 24 runs this file as it is; it imports no mock code.
 */
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { resolve } from 'node:path';

export const TOKEN = 'demo-token-job-signals';

export type Message =
	| { kind: 'ready'; port: number }
	| { kind: 'loop'; maxMs: number; p99Ms: number; maxCpuMs: number; maxGcMs: number; heapMb: number }
	| { kind: 'loop?' }
	| { kind: 'loop-reset' }
	| { kind: 'stop' };
export type LoopReport = Extract<Message, { kind: 'loop' }>;

/** Child role: serves the build in `dist` with `options` (port 0, rate limit off unless given) and answers loop questions. */
export async function runWatchedMock(dist: string, options: object = {}): Promise<void> {
	const { startMockServer } = (await import(resolve(dist, 'index.js'))) as { startMockServer: (o: object) => Promise<{ appUrl: string }> };
	const server = await startMockServer({ port: 0, rateLimit: 0, ...options });
	const loop = monitorEventLoopDelay({ resolution: 5 });
	loop.enable();
	// The main thread's CPU time between two ticks: the longest stretch of work it did without a turn,
	// which other processes on the machine cannot stretch the way they stretch the wall-clock delay.
	const cpuNow = () => {
		const { user, system } = process.threadCpuUsage();
		return (user + system) / 1000;
	};
	let lastCpu = cpuNow();
	let maxCpuMs = 0;
	// Garbage collection pauses, to tell the mock's own blocks from the collector's.
	let maxGcMs = 0;
	new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) maxGcMs = Math.max(maxGcMs, entry.duration);
	}).observe({ entryTypes: ['gc'] });
	setInterval(() => {
		const now = cpuNow();
		maxCpuMs = Math.max(maxCpuMs, now - lastCpu);
		lastCpu = now;
	}, 2).unref();
	process.send?.({ kind: 'ready', port: Number(new URL(server.appUrl).port) } satisfies Message);
	// The benchmark ended, however: this mock ends with it.
	process.once('disconnect', () => process.exit(0));
	process.on('message', (message: Message) => {
		if (message.kind === 'loop-reset') {
			loop.reset();
			maxCpuMs = 0;
			maxGcMs = 0;
		}
		if (message.kind === 'loop?') {
			const heapMb = Math.round(process.memoryUsage().heapUsed / 1e6);
			process.send?.({ kind: 'loop', maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6, maxCpuMs, maxGcMs, heapMb } satisfies Message);
		}
		if (message.kind === 'stop') process.exit(0);
	});
}

/** Sends a message to the child; with `reply`, resolves with its first answer of that kind. */
export function ask(child: ChildProcess, message: Message, reply?: Message['kind']): Promise<Message | undefined> {
	return new Promise((done) => {
		if (reply === undefined) {
			child.send(message);
			return done(undefined);
		}
		const on = (m: Message) => {
			if (m.kind !== reply) return;
			child.off('message', on);
			done(m);
		};
		child.on('message', on);
		child.send(message);
	});
}

export function get(agent: Agent, port: number, path: string): Promise<{ status: number; body: string }> {
	return new Promise((done, fail) => {
		const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
			res.on('error', fail);
		});
		req.on('error', fail);
		req.end();
	});
}

export function percentile(sorted: readonly number[], p: number): number {
	return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
