/**
 * A memory benchmark's child role and the parent's handle on it: one build of
 * the mock over HTTP in its own process, started with --expose-gc, that
 * answers with its heap after a full collection, its RSS, and what the
 * benchmark counts in the service (`facts`). Node 24 runs this file as it is;
 * it imports no mock code.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import type { Build } from './builds.mts';

type Facts = Record<string, number | null>;
export interface MemoryReport {
	rssMb: number;
	heapMb: number;
	facts: Facts;
}

type Message = { kind: 'ready'; port: number } | { kind: 'memory?' } | ({ kind: 'memory' } & MemoryReport) | { kind: 'stop' };

/** Child role: serves the build in `dist` with `options` and answers memory questions with `facts` of its service. */
export async function runMemoryMock<S>(dist: string, options: object, facts: (service: S) => Facts): Promise<void> {
	const { startMockServer } = (await import(resolve(dist, 'index.js'))) as { startMockServer: (o: object) => Promise<{ appUrl: string; service: S }> };
	const server = await startMockServer({ port: 0, rateLimit: 0, ...options });
	process.send?.({ kind: 'ready', port: Number(new URL(server.appUrl).port) } satisfies Message);
	// The benchmark ended, however: this mock ends with it.
	process.once('disconnect', () => process.exit(0));
	process.on('message', (message: Message) => {
		if (message.kind === 'memory?') {
			(globalThis as { gc?: () => void }).gc?.();
			const { rss, heapUsed } = process.memoryUsage();
			process.send?.({ kind: 'memory', rssMb: Math.round(rss / 1e6), heapMb: Math.round(heapUsed / 1e6), facts: facts(server.service) } satisfies Message);
		}
		if (message.kind === 'stop') process.exit(0);
	});
}

export interface MemoryMock {
	appUrl: string;
	memory(): Promise<MemoryReport>;
	stop(): Promise<void>;
}

/** Parent side: forks `script` in its child role for `build` and waits until it serves. */
export async function startMemoryMock(script: string, build: Build): Promise<MemoryMock> {
	const child = fork(script, ['--mock', build.dist], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: ['--expose-gc'] });
	const ready = (await new Promise<Message>((done) => child.once('message', done))) as Extract<Message, { kind: 'ready' }>;
	return {
		appUrl: `http://127.0.0.1:${ready.port}`,
		memory: () =>
			new Promise((done) => {
				const on = (m: Message) => {
					if (m.kind !== 'memory') return;
					child.off('message', on);
					done({ rssMb: m.rssMb, heapMb: m.heapMb, facts: m.facts });
				};
				child.on('message', on);
				child.send({ kind: 'memory?' } satisfies Message);
			}),
		async stop() {
			child.send({ kind: 'stop' } satisfies Message);
			await new Promise((done) => child.once('exit', done));
		},
	};
}
