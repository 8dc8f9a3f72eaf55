// Requests that get no answer say what happened, from the error codes n8n's request helper really exposes:
// real sockets on 127.0.0.1 (a closed port, a server that resets or closes the connection, one that never answers) and a name that does not resolve.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi, type TestContext } from 'vitest';
import { runNode, type NodeRun } from '../../harness/in-process/workflow.mts';
import { describeNetworkError } from '../../nodes/shared/transport/network.ts';
import { NODE_TYPE } from './direct.mts';

afterEach(() => {
	vi.useRealTimers();
});

/** A TCP server on a free port that does `onRequest` with each connection once the request has arrived; closed when the test ends (the test's own hook: tests here run concurrently). */
async function tcpServer({ onTestFinished }: TestContext, onRequest: (socket: Socket) => void): Promise<string> {
	const sockets: Socket[] = [];
	const server: Server = createServer((socket) => {
		sockets.push(socket);
		socket.once('data', () => onRequest(socket));
	});
	onTestFinished(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => server.close(resolve));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<string> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}`;
}

const getFilters = (origin: string): Promise<NodeRun> =>
	runNode({
		type: NODE_TYPE,
		parameters: { resource: 'job', operation: 'getFilters' },
		credentials: { jobSignalsApi: { apiToken: 'network-test-token', baseUrl: `${origin}/v2`, appUrl: origin } },
	});

/** Every attempt of a read (1 + 3 retries) failed the same way. */
const unreachable = (origin: string, what: string) => ({
	message: `Could not reach the Job Signals service at ${origin}: ${what}`,
	description: '4 attempts. Check the URLs in the Job Signals API credential and that the service is reachable from n8n.',
});

describe.concurrent('network errors through n8n-core\'s request helper (retries wait 1 + 2 + 4 s)', () => {
	it('a closed port: connection refused', async () => {
		const origin = await closedPort();
		const run = await getFilters(origin);
		expect({ message: run.error?.message, description: run.error?.description }).toEqual(unreachable(origin, 'connection refused'));
	}, 30_000);

	it('a server that resets the connection, and one that closes it, before answering: connection reset', async (test) => {
		const resets = await tcpServer(test, (socket) => socket.resetAndDestroy());
		const closes = await tcpServer(test, (socket) => socket.destroy());
		const [reset, closed] = await Promise.all([getFilters(resets), getFilters(closes)]);
		expect({ message: reset.error?.message, description: reset.error?.description }).toEqual(unreachable(resets, 'connection reset before an answer came'));
		expect({ message: closed.error?.message, description: closed.error?.description }).toEqual(unreachable(closes, 'connection reset before an answer came'));
	}, 30_000);

	it('a server that answers something that is not HTTP: named so, with the parser\'s code', async (test) => {
		const garbles = await tcpServer(test, (socket) => socket.end('not an answer\r\n\r\n'));
		const run = await getFilters(garbles);
		expect({ message: run.error?.message, description: run.error?.description }).toEqual(unreachable(garbles, 'an answer that is not HTTP (HPE_INVALID_CONSTANT)'));
	}, 30_000);

	it('a host name that does not resolve: DNS failure', async () => {
		// .invalid never resolves (RFC 2606), on any resolver. https: plain http goes to this machine only (tls-only.ts).
		const run = await getFilters('https://job-signals.invalid');
		// ENOTFOUND, or EAI_AGAIN on a machine whose resolver cannot be reached.
		expect(run.error?.message).toMatch(/^Could not reach the Job Signals service at https:\/\/job-signals\.invalid: DNS failure: the (host name was not found|name server did not answer)$/);
	}, 30_000);
});

describe('a server that never answers', () => {
	it('times out after 30 s on each attempt (on fake timers: the HTTP client\'s timeout and the backoff both run on setTimeout)', async (test) => {
		let attempts = 0;
		const silent = await tcpServer(test, () => attempts++);
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		let done = false;
		const running = getFilters(silent).finally(() => (done = true));
		// Real I/O needs real turns of the event loop between the fake clock's steps.
		for (let step = 0; !done && step < 10_000; step++) {
			await new Promise((resolve) => setImmediate(resolve));
			if (attempts > 0) await vi.advanceTimersByTimeAsync(500);
		}
		const run = await running;
		expect(attempts).toBe(4);
		expect({ message: run.error?.message, description: run.error?.description }).toEqual(unreachable(silent, 'timed out after 30 s'));
	}, 60_000);
});

describe('an error with no code this list knows', () => {
	it('is named by its innermost message, cut at 200 characters', () => {
		const wrapped = { message: 'outer words', cause: { message: 'the socket was handed back to the pool' } };
		expect(describeNetworkError(wrapped, 30_000)).toBe('no answer (the socket was handed back to the pool)');
		expect(describeNetworkError(new Error('x'.repeat(200)), 30_000)).toBe(`no answer (${'x'.repeat(200)})`);
		expect(describeNetworkError(new Error('x'.repeat(201)), 30_000)).toBe(`no answer (${'x'.repeat(200)}…)`);
		expect(describeNetworkError(new Error('x'.repeat(500)), 30_000)).toBe(`no answer (${'x'.repeat(200)}…)`);
		expect(describeNetworkError({}, 30_000)).toBe('no answer');
	});
});
