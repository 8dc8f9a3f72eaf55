// The token goes only to the credential's own origin, checked on real sockets on 127.0.0.1 through n8n-core's request
// helper: a redirect to another port or to a sub-domain is not followed (an error names its target) and nothing reaches
// the target; a same-origin redirect is followed with the token, at most MAX_REDIRECTS in a row; an HTTP proxy given in
// the environment never sees the token of an https:// call, nor that of a plain-http call to this machine once NO_PROXY
// names it (n8n sends plain http through HTTP_PROXY otherwise: docs/credential.md, "Proxies").
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it, type TestContext } from 'vitest';
import { getFollowingSameOrigin, MAX_REDIRECTS, type HopAnswer } from '../../contract/token-transport';
import { runNode, type NodeRun } from '../../harness/in-process/workflow.mts';
import { NODE_TYPE } from './direct.mts';

const TOKEN = 'origin-test-token-7f3a';

interface Seen {
	url: string;
	authorization?: string;
}

/** An HTTP server on a free port of 127.0.0.1 that logs each request and answers it with `answer`; closed when the test ends. */
async function server({ onTestFinished }: TestContext, answer: (request: IncomingMessage, response: ServerResponse, port: number) => void) {
	const seen: Seen[] = [];
	const sockets = new Set<Socket>();
	const http: Server = createServer((request, response) => {
		seen.push({ url: request.url ?? '', authorization: request.headers.authorization });
		answer(request, response, port);
	});
	http.on('connection', (socket) => sockets.add(socket));
	onTestFinished(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => http.close(resolve));
	});
	await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
	const port = (http.address() as { port: number }).port;
	return { port, seen };
}

const redirect = (response: ServerResponse, location: string, status = 302) => {
	response.writeHead(status, { location, 'content-length': '0' });
	response.end();
};

const refuse = (response: ServerResponse) => {
	response.writeHead(401, { 'content-type': 'application/json' });
	response.end(JSON.stringify({ status: 401, error: 'Unauthorized', message: 'Unknown token' }));
};

const getFilters = (baseUrl: string): Promise<NodeRun> =>
	runNode({
		type: NODE_TYPE,
		parameters: { resource: 'job', operation: 'getFilters' },
		credentials: { jobSignalsApi: { apiToken: TOKEN, baseUrl, appUrl: baseUrl.replace(/\/v2$/, '') } },
	});

const everything = (run: NodeRun) => JSON.stringify(run.items) + (run.error ? JSON.stringify(run.error, Object.getOwnPropertyNames(run.error)) : '');

const crossOrigin = (status: number, target: string, origin: string) =>
	`The service answered ${status} with a redirect to ${target}, another origin than ${origin}: the credential's tokens go to the API Base URL's own origin only (a sub-domain, another port or http:// is another origin), so the redirect was not followed. If the service has moved, put its new address into the API Base URL.`;

describe('a redirect to another origin is not followed: the error names where it pointed, and nothing reaches it', () => {
	it('another port of the same host', async (test) => {
		const other = await server(test, (_, response) => refuse(response));
		const service = await server(test, (_, response) => redirect(response, `http://127.0.0.1:${other.port}/v2/jobs/filters`));
		const run = await getFilters(`http://127.0.0.1:${service.port}/v2`);
		expect(run.error?.message).toBe(crossOrigin(302, `http://127.0.0.1:${other.port}/v2/jobs/filters`, `http://127.0.0.1:${service.port}`));
		expect(run.error?.description).toBe('Check the API Base URL in the Job Signals API credential.');
		expect(service.seen).toEqual([{ url: '/v2/jobs/filters', authorization: `Bearer ${TOKEN}` }]);
		expect(other.seen).toEqual([]);
		expect(everything(run)).not.toContain(TOKEN);
	});

	it('a sub-domain of the service\'s host (308, from localhost to api.localhost on the same port)', async (test) => {
		const service = await server(test, (_, response, port) => redirect(response, `http://api.localhost:${port}/v2/jobs/filters`, 308));
		const run = await getFilters(`http://localhost:${service.port}/v2`);
		expect(run.error?.message).toBe(crossOrigin(308, `http://api.localhost:${service.port}/v2/jobs/filters`, `http://localhost:${service.port}`));
		expect(service.seen).toHaveLength(1);
	});

	it('a Location with a user and password: the message shows the target without them', async (test) => {
		const service = await server(test, (_, response) => redirect(response, `http://me:${TOKEN}@127.0.0.1:1/v2/jobs/filters`));
		const run = await getFilters(`http://127.0.0.1:${service.port}/v2`);
		expect(run.error?.message).toBe(crossOrigin(302, 'http://127.0.0.1:1/v2/jobs/filters', `http://127.0.0.1:${service.port}`));
		expect(everything(run)).not.toContain(TOKEN);
	});
});

describe('a redirect within the origin is followed, with the token, at most MAX_REDIRECTS in a row', () => {
	it(`${MAX_REDIRECTS} redirects in a row are followed, each with the token, to the answer at their end`, async (test) => {
		const service = await server(test, (request, response) => {
			const hop = Number(new URL(request.url ?? '', 'http://x').searchParams.get('hop') ?? 0);
			if (hop < MAX_REDIRECTS) redirect(response, `/v2/jobs/filters?hop=${hop + 1}`, hop % 2 === 0 ? 301 : 307);
			else refuse(response);
		});
		const run = await getFilters(`http://127.0.0.1:${service.port}/v2`);
		// The last hop's answer is the run's: the service's own 401.
		expect(run.error?.message).toBe('The service answered 401: Unknown token');
		expect(service.seen.map((seen) => seen.url)).toEqual(['/v2/jobs/filters', ...Array.from({ length: MAX_REDIRECTS }, (_, i) => `/v2/jobs/filters?hop=${i + 1}`)]);
		for (const seen of service.seen) expect(seen.authorization).toBe(`Bearer ${TOKEN}`);
	});

	it(`the redirect after ${MAX_REDIRECTS} is not followed: the error says so`, async (test) => {
		const service = await server(test, (request, response) => {
			const hop = Number(new URL(request.url ?? '', 'http://x').searchParams.get('hop') ?? 0);
			redirect(response, `/v2/jobs/filters?hop=${hop + 1}`);
		});
		const run = await getFilters(`http://127.0.0.1:${service.port}/v2`);
		expect(run.error?.message).toBe(
			`The service answered 302 with a redirect to http://127.0.0.1:${service.port}/v2/jobs/filters?hop=${MAX_REDIRECTS + 1} after ${MAX_REDIRECTS} redirects in a row, so it was not followed further.`,
		);
		expect(service.seen).toHaveLength(MAX_REDIRECTS + 1);
	});

	it('a request with a body (Subscriber → Upload) follows none, even within the origin', async (test) => {
		const service = await server(test, (_, response) => redirect(response, '/api/subscribers/upload-again', 307));
		const origin = `http://127.0.0.1:${service.port}`;
		const run = await runNode({
			type: NODE_TYPE,
			parameters: { resource: 'subscriber', operation: 'upload', emailAddresses: 'a@example.com' },
			credentials: { jobSignalsApi: { apiToken: TOKEN, baseUrl: `${origin}/v2`, appUrl: origin } },
		});
		expect(run.error?.message).toBe(
			`The service answered 307 with a redirect to ${origin}/api/subscribers/upload-again: a POST request follows no redirect (it would be sent again, or turned into a GET), so it was not followed.`,
		);
		expect(service.seen.map((seen) => seen.url)).toEqual(['/api/subscribers/upload']);
	});
});

/** A forward proxy on 127.0.0.1 that logs everything it is sent (plain requests, CONNECT lines and the bytes tunnelled after them) and forwards nothing. */
async function proxy({ onTestFinished }: TestContext) {
	const received: string[] = [];
	const http = createServer((request, response) => {
		received.push(`${request.method} ${request.url} ${JSON.stringify(request.headers)}`);
		response.writeHead(502);
		response.end();
	});
	http.on('connect', (request: IncomingMessage, socket: Socket) => {
		received.push(`CONNECT ${request.url} ${JSON.stringify(request.headers)}`);
		socket.on('data', (chunk: Buffer) => {
			received.push(`tunnelled: ${chunk.toString('latin1')}`);
			socket.destroy();
		});
		socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
	});
	onTestFinished(() => new Promise<void>((resolve) => http.close(() => resolve())));
	await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(http.address() as { port: number }).port}`, received };
}

/** Sets the environment's proxy variables for one test (n8n-core reads them on every request). */
function withEnvironment({ onTestFinished }: TestContext, values: Record<string, string | undefined>) {
	const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
	const set = (entries: Record<string, string | undefined>) => {
		for (const [name, value] of Object.entries(entries)) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	};
	set(values);
	onTestFinished(() => set(saved));
}

const NO_PROXY_VARIABLES = { NO_PROXY: undefined, no_proxy: undefined, HTTPS_PROXY: undefined, https_proxy: undefined, HTTP_PROXY: undefined, http_proxy: undefined, ALL_PROXY: undefined, all_proxy: undefined };

describe('an HTTP proxy in the environment (HTTP_PROXY, HTTPS_PROXY), which n8n-core\'s helper uses for every call', () => {
	it('https://: the proxy is asked for a tunnel and sees only TLS, never the token', async (test) => {
		const forward = await proxy(test);
		withEnvironment(test, { ...NO_PROXY_VARIABLES, HTTPS_PROXY: forward.url });
		const run = await getFilters('https://api.job-signals.test/v2');
		expect(run.error).toBeDefined();
		expect(forward.received[0]).toMatch(/^CONNECT api\.job-signals\.test:443 /);
		expect(forward.received.filter((line) => line.startsWith('tunnelled: '))).not.toHaveLength(0);
		expect(forward.received.join('\n')).not.toContain(TOKEN);
	}, 30_000);

	it('plain http:// to this machine with NO_PROXY naming it: the call goes straight to the service, the proxy sees nothing', async (test) => {
		const forward = await proxy(test);
		const service = await server(test, (_, response) => refuse(response));
		withEnvironment(test, { ...NO_PROXY_VARIABLES, HTTP_PROXY: forward.url, NO_PROXY: 'localhost,127.0.0.1,::1' });
		const run = await getFilters(`http://127.0.0.1:${service.port}/v2`);
		expect(run.error?.message).toBe('The service answered 401: Unknown token');
		expect(service.seen).toHaveLength(1);
		expect(forward.received).toEqual([]);
	});

	it('plain http:// to this machine without NO_PROXY: n8n 2.40.7 sends it through the proxy, token and all (the limit docs/credential.md states: a node can neither turn the proxy off nor read the environment)', async (test) => {
		const forward = await proxy(test);
		const service = await server(test, (_, response) => refuse(response));
		withEnvironment(test, { ...NO_PROXY_VARIABLES, HTTP_PROXY: forward.url });
		await getFilters(`http://127.0.0.1:${service.port}/v2`);
		expect(service.seen).toEqual([]);
		expect(forward.received.some((line) => line.includes(TOKEN))).toBe(true);
	}, 30_000);
});

describe('the one redirect loop (contract/token-transport.ts), which the credential test and the mock\'s record follow GETs with', () => {
	/** A fake `get` over a map of URL → [status, Location]; it logs each URL asked for and each body cancelled. */
	const hops = (answers: Record<string, [number, string?]>) => {
		const asked: string[] = [];
		const cancelled: string[] = [];
		const get = (url: string): Promise<HopAnswer & { url: string }> => {
			asked.push(url);
			const [status, location] = answers[url] ?? [404];
			return Promise.resolve({ url, status, headers: { get: (name: string) => (name === 'location' ? (location ?? null) : null) }, body: { cancel: () => Promise.resolve(void cancelled.push(url)) } });
		};
		return { get, asked, cancelled };
	};

	it('no redirect: the answer, asked once, its body left to read', async () => {
		const { get, asked, cancelled } = hops({ 'https://api.example/v2/x': [200] });
		expect(await getFollowingSameOrigin('https://api.example/v2/x', get)).toMatchObject({ answer: { url: 'https://api.example/v2/x', status: 200 } });
		expect([asked, cancelled]).toEqual([['https://api.example/v2/x'], []]);
	});

	it(`${MAX_REDIRECTS} same-origin redirects in a row (absolute, relative, each status) are followed to the answer; each redirect's body cancelled`, async () => {
		const statuses = [301, 302, 303, 307, 308];
		const answers: Record<string, [number, string?]> = {};
		for (let i = 0; i < MAX_REDIRECTS; i++) answers[`https://api.example/v2/${i}`] = [statuses[i % statuses.length], i % 2 === 0 ? `/v2/${i + 1}` : `https://api.example/v2/${i + 1}`];
		answers[`https://api.example/v2/${MAX_REDIRECTS}`] = [200];
		const { get, asked, cancelled } = hops(answers);
		expect(await getFollowingSameOrigin('https://api.example/v2/0', get)).toMatchObject({ answer: { url: `https://api.example/v2/${MAX_REDIRECTS}`, status: 200 } });
		expect(asked).toHaveLength(MAX_REDIRECTS + 1);
		expect(cancelled).toEqual(asked.slice(0, MAX_REDIRECTS));
	});

	it(`the redirect after ${MAX_REDIRECTS}: not followed, refused as too many, with where it pointed`, async () => {
		const answers: Record<string, [number, string?]> = {};
		for (let i = 0; i <= MAX_REDIRECTS; i++) answers[`https://api.example/v2/${i}`] = [302, `/v2/${i + 1}`];
		const { get, asked } = hops(answers);
		expect(await getFollowingSameOrigin('https://api.example/v2/0', get)).toEqual({
			refused: { why: 'too-many', status: 302, from: `https://api.example/v2/${MAX_REDIRECTS}`, to: { url: `https://api.example/v2/${MAX_REDIRECTS + 1}`, sameOrigin: true }, followed: MAX_REDIRECTS },
		});
		expect(asked).toHaveLength(MAX_REDIRECTS + 1);
	});

	it.each([
		['a sub-domain', 'https://eu.api.example/v2/x'],
		['another port', 'https://api.example:8443/v2/x'],
		['https → http', 'http://api.example/v2/x'],
		['another host', 'https://elsewhere.example/v2/x'],
	])('another origin (%s), first or after a same-origin one: refused, never asked for', async (_, elsewhere) => {
		for (const start of ['https://api.example/v2/a', 'https://api.example/v2/b']) {
			const { get, asked, cancelled } = hops({ 'https://api.example/v2/a': [307, elsewhere], 'https://api.example/v2/b': [301, '/v2/a'] });
			const followed = await getFollowingSameOrigin(start, get);
			expect(followed).toEqual({ refused: { why: 'other-origin', status: 307, from: 'https://api.example/v2/a', to: { url: elsewhere, sameOrigin: false }, followed: start.endsWith('/a') ? 0 : 1 } });
			expect(asked).not.toContain(elsewhere);
			expect(cancelled).toEqual(asked);
		}
	});

	it('a redirect status without a Location, or with one that names no URL, is the answer itself', async () => {
		for (const location of [undefined, 'http://[bad']) {
			const { get, cancelled } = hops({ 'https://api.example/v2/x': [302, location] });
			expect(await getFollowingSameOrigin('https://api.example/v2/x', get)).toMatchObject({ answer: { status: 302 } });
			expect(cancelled).toEqual([]);
		}
	});
});
