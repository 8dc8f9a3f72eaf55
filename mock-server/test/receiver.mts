/**
 * A webhook receiver over real HTTP for the mock's tests: node:http
 * on 127.0.0.1 with an ephemeral port, reading the whole body before handing
 * the request to the test's `answer` function.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer = (request: IncomingMessage, body: Buffer, response: ServerResponse) => Promise<void> | void;

export interface Receiver {
	url: string;
	close(): Promise<void>;
}

export async function startReceiver(answer: Answer, path = '/hook'): Promise<Receiver> {
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			Promise.resolve(answer(request, Buffer.concat(chunks), response)).catch((error: unknown) => {
				response.statusCode = 599;
				response.end(String(error));
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}${path}`,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((error) => (error ? reject(error) : resolve()));
			}),
	};
}

/** Lets a test hold an answer back for a while (the receiver is a test double, not node code). */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds (polling; a busy machine only makes it slower). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
	const end = performance.now() + timeoutMs;
	while (!(await check())) {
		if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
		await pause(10);
	}
}
