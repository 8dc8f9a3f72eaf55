/**
 * The standalone server: a small node:http adapter around msw's
 * getResponse(handlers, request) (msw 3 has no handleRequest, and
 * @mswjs/http-middleware does not work with msw 3).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, type HttpHandler } from 'msw';
import { API_VERSION_SEGMENT } from './contract/api';
import type { MockServiceOptions } from './options';
import { createMockService, type MockService } from './service';

export interface StartOptions extends MockServiceOptions {
	port?: number;
	host?: string;
}

export interface RunningMockServer {
	apiUrl: string;
	appUrl: string;
	service: MockService;
	close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
const NOT_FOUND = JSON.stringify({ status: 404, error: 'Not Found', message: 'No such endpoint' });

export async function startMockServer(options: StartOptions = {}): Promise<RunningMockServer> {
	const { port = DEFAULT_PORT, host = DEFAULT_HOST, ...serviceOptions } = options;
	const service = await createMockService(serviceOptions);
	const server = createServer((req, res) => {
		serve(service.handlers, req, res).catch((error: unknown) => {
			// Handlers answer every bad input themselves; reaching here is a mock bug, so say so loudly.
			console.error('job-signals-mock: unhandled error', error);
			if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ status: 500, error: 'Internal Server Error', message: 'Mock server bug' }));
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, resolve);
	});
	const address = server.address() as AddressInfo;
	const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	const appUrl = `http://${hostPart}:${address.port}`;
	return {
		appUrl,
		apiUrl: `${appUrl}${API_VERSION_SEGMENT}`,
		service,
		close: () =>
			new Promise<void>((resolve, reject) => {
				service.close();
				server.closeAllConnections();
				server.close((error) => (error ? reject(error) : resolve()));
			}),
	};
}

async function serve(handlers: HttpHandler[], req: IncomingMessage, res: ServerResponse): Promise<void> {
	const method = req.method ?? 'GET';
	const chunks: Buffer[] = [];
	if (method !== 'GET' && method !== 'HEAD') for await (const chunk of req) chunks.push(chunk as Buffer);
	const headers = new Headers();
	for (const [name, value] of Object.entries(req.headers)) {
		if (Array.isArray(value)) for (const v of value) headers.append(name, v);
		else if (value !== undefined) headers.set(name, value);
	}
	const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
		method,
		headers,
		body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
	});
	const response = await getResponse(handlers, request);
	if (!response) {
		res.writeHead(404, { 'Content-Type': 'application/json' }).end(NOT_FOUND);
		return;
	}
	if (response.type === 'error') {
		// An injected "dropped connection".
		req.socket.destroy();
		return;
	}
	// Reading the body's chunks (one, for the mock's string bodies) skips the copy arrayBuffer() makes:
	// on a 1000-signal page that copy was a third of the request's time and of its garbage.
	const parts: Uint8Array[] = [];
	let length = 0;
	const reader = response.body?.getReader();
	for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
		parts.push(read.value);
		length += read.value.byteLength;
	}
	const outHeaders: Record<string, string> = {};
	response.headers.forEach((value, name) => (outHeaders[name] = value));
	outHeaders['content-length'] = String(length);
	res.writeHead(response.status, outHeaders);
	for (const part of parts) res.write(part);
	res.end();
}
