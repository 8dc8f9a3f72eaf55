/**
 * The standalone server: a small node:http adapter around msw's
 * getResponse(handlers, request) (msw 3 has no handleRequest, and
 * @mswjs/http-middleware does not work with msw 3).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, type HttpHandler } from 'msw';
import { API_VERSION_SEGMENT, LIMITS, OPENAPI_DOCUMENT_PATH } from './base/contract.mts';
import { apiError } from './http/respond.mts';
import type { MockServiceOptions } from './options.mts';
import { createMockService, type MockService } from './service.mts';
import { allowedMethods } from './http/with-cors.mts';
import { clientErrorAnswer } from './standalone/client-error.mts';
import { hostAllowed, isServedPath } from './standalone/local-only.mts';
import { isPagePath, pageAnswer } from './page/page.mts';
import { ROOT_PATH, rootAnswer } from './page/root.mts';
import { readBody } from './standalone/read-body.mts';
import { requestUrl } from './standalone/request-url.mts';
import { writeResponse } from './standalone/write-response.mts';
import { writeStubFault } from './wiremock/index.mts';

export interface StartOptions extends MockServiceOptions {
	port?: number;
	host?: string;
	/** The request body limit, checked while reading (413 above it). */
	maxBodyBytes?: number;
	/** Host names served besides localhost and IP literals (DNS rebinding protection, standalone/local-only.mts). */
	allowedHosts?: readonly string[];
}

export interface RunningMockServer {
	apiUrl: string;
	appUrl: string;
	service: MockService;
	close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
/**
 * Methods the handlers answer on any path (HEAD: as GET, or a HEAD stub; OPTIONS: the CORS preflight, or an OPTIONS stub).
 * Another method (PATCH) reaches them only on a path a stub may answer with it; any other (TRACE, PROPFIND…) never, and
 * fetch's Request refuses some (TRACE).
 */
const ROUTED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']);
/** WireMock's admin API; and the mock's own paths, which are not calls (the journal does not keep them). */
const ADMIN_PATH = /^\/__admin(\/|$)/;
const OWN_PATH = new RegExp(`^(/__admin|/__mock)(/|$)|^${OPENAPI_DOCUMENT_PATH.replace(/[.]/g, '\\.')}$`);
const CONNECT_REFUSED = (() => {
	const body = JSON.stringify({ status: 400, error: 'Bad Request', message: 'The request target must be a path ("/v2/…"): this is no proxy' });
	return `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
})();

export async function startMockServer(options: StartOptions = {}): Promise<RunningMockServer> {
	const { port = DEFAULT_PORT, host = DEFAULT_HOST, maxBodyBytes = LIMITS.maxRequestBodyBytes, allowedHosts = [], ...serviceOptions } = options;
	if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 0) throw new Error('maxBodyBytes must be a whole number ≥ 0');
	const service = await createMockService(serviceOptions);
	const server = createServer((req, res) => {
		serve(service, { maxBodyBytes, allowedHosts }, req, res).catch((error: unknown) => {
			// Handlers answer every bad input themselves; reaching here is a mock bug, so say so loudly.
			console.error('job-signals-mock: unhandled error', error);
			if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ status: 500, error: 'Internal Server Error', message: 'Mock server bug' }));
		});
	});
	// node:http hands CONNECT to 'connect' listeners and, with none, drops the connection unanswered.
	server.on('connect', (_req, socket) => socket.end(CONNECT_REFUSED));
	// What node's HTTP parser refuses gets the mock's JSON error shape, not node's bare 400.
	server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
		if (!socket.writable) return void socket.destroy();
		const answer = clientErrorAnswer(error);
		if (answer === undefined) return void socket.destroy();
		socket.end(answer);
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

async function serve(service: MockService, limits: { maxBodyBytes: number; allowedHosts: readonly string[] }, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const { maxBodyBytes } = limits;
	const url = requestUrl(req);
	const header = (name: string) => {
		const value = req.headers[name];
		return typeof value === 'string' ? value : null;
	};
	const origin = header('origin');
	// The answers made here, not by the handlers, get the CORS headers here.
	const cors = service.cors.headers(origin, url instanceof Response ? undefined : url);
	if (url instanceof Response) return writeResponse(res, url, { ...cors, connection: 'close' });
	if (req.headers.host !== undefined && !hostAllowed(url.hostname, limits.allowedHosts)) {
		const message = `Host "${url.hostname}" is not this mock's address: it serves localhost and IP addresses, and the names given to --allowed-hosts (this refuses DNS rebinding)`;
		return writeResponse(res, apiError(403, message), { connection: 'close' });
	}
	// A page not allowed to call the mock (http/cors.mts) is refused before its body is read or any route sees it:
	// a simple cross-origin request reaches the server, whether or not the page may read the answer.
	const refused = service.cors.refusal(url, header, isPagePath(url.pathname) || url.pathname === ROOT_PATH);
	if (refused) return writeResponse(res, refused, { connection: 'close' });
	// The page (page/page.mts) and the front door (page/root.mts) are the standalone server's own: no route has them,
	// in-process there is no browser to show them.
	if (isPagePath(url.pathname)) return writeResponse(res, pageAnswer(req.method ?? 'GET'), cors);
	if (url.pathname === ROOT_PATH) {
		const answer = rootAnswer(req.method ?? 'GET', url.origin, header('accept'));
		const vary = [answer.headers.get('vary'), cors.vary].filter((value) => value !== null && value !== undefined).join(', ');
		return writeResponse(res, answer, vary === '' ? cors : { ...cors, vary });
	}
	// The service's paths and the mock's own; besides them, WireMock's admin API and the paths a stub may answer.
	const servicePath = isServedPath(url.pathname);
	const admin = ADMIN_PATH.test(url.pathname);
	const stubPath = !servicePath && !admin && service.wiremock.serves(url.pathname);
	const routes = servicePath ? service.routes : service.wiremock.routes;
	// HEAD goes on as HEAD (a HEAD stub, else answered as GET: http/with-cors.mts); node:http leaves the body out.
	const method = req.method ?? 'GET';
	const stubbed = () => service.wiremock.methods(url.pathname);
	const headers = new Headers();
	for (const [name, value] of Object.entries(req.headers)) {
		if (Array.isArray(value)) for (const v of value) headers.append(name, v);
		else if (value !== undefined) headers.set(name, value);
	}
	// Every request is on the record (http/journal.mts) but the mock's own (/__admin, /__mock, /openapi.json): what the
	// routes and stubs answer they journal themselves, what is answered here is journaled here, with the method as sent.
	const journaled = !OWN_PATH.test(url.pathname);
	const answer = (response: Response, read: Uint8Array | undefined, extra: Record<string, string> = {}) => {
		if (journaled) service.journalAnswered({ method, headers }, url, response, read);
		return writeResponse(res, response, { ...cors, ...extra });
	};
	let body: Buffer<ArrayBuffer> | undefined;
	if (method !== 'GET' && method !== 'HEAD') {
		const read = await readBody(req, maxBodyBytes);
		// The client went away mid-body: there is no one to answer.
		if ('aborted' in read) return;
		if ('tooLarge' in read) return answer(apiError(413, tooLargeMessage(maxBodyBytes)), undefined, { connection: 'close' });
		body = read.body;
	}
	if (!servicePath && !admin && !stubPath) return answer(apiError(404, 'No such endpoint'), body);
	// A stub path no stub can match (a method no stub names) or none matched: the diff against the closest stub.
	const notMatched = () => service.wiremock.notMatched({ method, url, headers }, body?.toString('utf8') ?? '');
	if (!ROUTED_METHODS.has(method) && !stubbed().includes(method)) return answer(stubPath ? notMatched() : unrouted(routes, url, method, stubbed()), body);
	const request = new Request(url, { method, headers, body: body && body.length > 0 ? body : undefined });
	// service.handlers is read on each request: a test or benchmark may wrap it.
	// A path the service does not have never reaches its routes (they match any prefix: /x/v2/collections).
	const response = await getResponse(servicePath ? service.handlers : service.wiremock.handlers, request);
	if (!response) return answer(stubPath ? notMatched() : unrouted(routes, url, method, stubbed()), body);
	// A stub's fault (CONNECTION_RESET_BY_PEER, MALFORMED_RESPONSE_CHUNK, …) is written to the socket as such.
	if (writeStubFault(req.socket, response)) return;
	if (response.type === 'error') {
		// An injected "dropped connection".
		req.socket.destroy();
		return;
	}
	return writeResponse(res, response);
}

/** The 413's message: the limit, and the flag (and option) that sets it, so the tester knows what to change. */
export function tooLargeMessage(maxBodyBytes: number): string {
	return `The request body is larger than ${maxBodyBytes} bytes, this mock's limit: start it with a larger --max-body-bytes (startMockServer's maxBodyBytes; default ${LIMITS.maxRequestBodyBytes})`;
}

/**
 * No handler answered this method and URL: 405 with Allow on a path that has other methods (the routes', and those stubs
 * may answer it with), else 404 — also for a method a stub has here but whose stubs did not match the request
 * (OPTIONS on a known path is the handlers' preflight).
 */
function unrouted(routes: readonly HttpHandler[], url: URL, method: string, stubbed: readonly string[]): Response {
	const allowed = allowedMethods(routes, url, stubbed);
	if (allowed.length === 0 || allowed.includes(method)) return apiError(404, 'No such endpoint');
	const headers = { allow: allowed.join(', ') };
	return apiError(405, `${method} is not allowed here; allowed: ${headers.allow}`, headers);
}
