/**
 * Serves a harnessed trigger over real HTTP, the way n8n's webhook server
 * does: node:http on 127.0.0.1 with an ephemeral port; read the whole body,
 * parse it as JSON (400 when it is not JSON), keep the raw bytes, run the
 * webhook function with the URL's query and the client's address, write its answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { createTrigger } from './trigger.mts';

export type Trigger = ReturnType<typeof createTrigger>;

/** What a test may do around the trigger: answer differently or late, per attempt. */
export interface Interference {
	before?: (eventId: string, attempt: number) => Promise<number | undefined> | number | undefined;
	after?: (eventId: string, attempt: number) => Promise<number | undefined> | number | undefined;
}

export async function serveTrigger(trigger: Trigger, interference: Interference = {}) {
	const emitted: Array<Record<string, unknown>> = [];
	const attempts = new Map<string, number>();
	/** Milliseconds the webhook function took per delivery (parse to answer), for the benchmark. */
	const handlingMs: number[] = [];
	const answer = async (request: IncomingMessage, rawBody: Buffer, response: ServerResponse) => {
		const started = performance.now();
		let body: unknown;
		try {
			body = JSON.parse(rawBody.toString('utf8'));
		} catch {
			response.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"invalid JSON"}');
			return;
		}
		const eventId = String((body as { webhook_event_id?: unknown })?.webhook_event_id);
		const attempt = (attempts.get(eventId) ?? 0) + 1;
		attempts.set(eventId, attempt);
		const early = await interference.before?.(eventId, attempt);
		if (early !== undefined) {
			response.writeHead(early).end();
			return;
		}
		const query = Object.fromEntries(new URL(request.url ?? '/', 'http://receiver').searchParams);
		const result = await trigger.deliver({ body, headers: request.headers, rawBody, query, remoteAddress: request.socket.remoteAddress });
		handlingMs.push(performance.now() - started);
		if (result.emitted) emitted.push(...result.emitted);
		const late = await interference.after?.(eventId, attempt);
		response.writeHead(late ?? result.status, { 'content-type': 'application/json' }).end(JSON.stringify(result.body));
	};
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			answer(request, Buffer.concat(chunks), response).catch((error: unknown) => {
				response.statusCode = 599;
				response.end(String(error));
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((error) => (error ? reject(error) : resolve()));
			}),
		emitted,
		attempts,
		handlingMs,
	};
}
