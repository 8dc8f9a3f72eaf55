// A service that echoes the credential's secrets (plain, in "Bearer …", URL-encoded, JSON-escaped) in errors, in a bad
// answer and inside records: none of it reaches the node's error message, description, stored error or output.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNode, type NodeRun } from '../../harness/in-process/workflow.mts';
import { NODE_TYPE } from './direct.mts';

// Characters that URL-encoding and JSON-escaping change, so each form is really a different text.
const API_TOKEN = 'tok/3n+S3cret="q"';
const ACCESS_TOKEN = 'upl0ad/acc+ess=key';
const FORMS = [API_TOKEN, ACCESS_TOKEN].flatMap((secret) => [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);

/** Everything the service was sent that could carry a secret: the Authorization header and the body, as text. */
const echoOf = async (request: IncomingMessage) => {
	let body = '';
	for await (const chunk of request) body += String(chunk);
	const auth = request.headers.authorization ?? '';
	return `Authorization: ${auth}; token ${encodeURIComponent(auth.replace(/^Bearer /, ''))}; body ${body} ${encodeURIComponent(body)}`;
};

const ROUTES: Record<string, (echo: string, response: ServerResponse) => void> = {
	'/v2/jobs/filters': (echo, response) => json(response, 401, { status: 401, error: 'Unauthorized', message: `Rejected ${echo}` }),
	'/v2/jobs/job_1': (echo, response) =>
		json(response, 200, { job_id: 'job_1', job_title: 'Echo', description: echo, [`key ${API_TOKEN}`]: [echo, { nested: echo }] }),
	'/v2/collections': (echo, response) => {
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(`{"data": [{"collection_id": "${echo.replace(/"/g, '\\"')}"`);
	},
	'/v2/sources/id/src_1': (echo, response) => {
		response.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' });
		response.end(`<html><head><title>502 Bad Gateway</title></head><body>upstream said: ${echo}</body></html>`);
	},
	'/api/subscribers/upload': (echo, response) => json(response, 400, { responseText: `Error 'access_token unknown: ${echo}'` }),
};

function json(response: ServerResponse, status: number, body: unknown) {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
}

const server = createServer((request, response) => {
	void echoOf(request).then((echo) => (ROUTES[new URL(request.url ?? '/', 'http://x').pathname] ?? ((_, r: ServerResponse) => json(r, 404, { message: 'no route' })))(echo, response));
});
let origin = '';
beforeAll(async () => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const run = (resource: string, operation: string, parameters: Record<string, unknown>, onError?: 'continueRegularOutput') =>
	runNode({
		type: NODE_TYPE,
		parameters: { resource, operation, output: 'raw', ...parameters },
		credentials: { jobSignalsApi: { apiToken: API_TOKEN, accessToken: ACCESS_TOKEN, baseUrl: `${origin}/v2`, appUrl: origin } },
		onError,
	});

/** The run as n8n would store or show it: items, and the error with every own property. */
const everything = (result: NodeRun) => JSON.stringify(result.items) + (result.error ? JSON.stringify(result.error, Object.getOwnPropertyNames(result.error)) : '');

const expectNoSecret = (result: NodeRun) => {
	const text = everything(result);
	for (const form of FORMS) expect(text).not.toContain(form);
};

describe('secrets the service echoes never leave the node', () => {
	it('a 401 whose message echoes the Authorization header', async () => {
		const result = await run('job', 'getFilters', {});
		expect(result.error?.message).toMatch(/^The service answered 401: Rejected Authorization: Bearer \[redacted\]; token \[redacted\]; body/);
		expect(result.error?.description).toContain('Bearer [redacted]');
		expectNoSecret(result);
	});

	it('a record that carries them, in values and in a key, comes out redacted', async () => {
		const result = await run('job', 'get', { jobId: 'job_1' });
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json.description).toMatch(/^Authorization: Bearer \[redacted\]; token \[redacted\]/);
		expect(Object.keys(item.json)).toContain('key [redacted]');
		expectNoSecret(result);
	});

	it('a cut-off answer whose first characters hold them', async () => {
		const result = await run('collection', 'getAll', { returnAll: true });
		expect(result.error?.message).toMatch(/^Collection → Get Many: .*the body is not JSON: [\d,]+ characters of text starting "\{"data": \[\{"collection_id": "Authorization: Bearer \[redacted\]/);
		expectNoSecret(result);
	});

	it('an HTML error page that holds them is reduced to its title', async () => {
		const result = await run('source', 'get', { source: { __rl: true, mode: 'id', value: 'src_1' } }, 'continueRegularOutput');
		expect(result.items.map((i) => i.json)).toEqual([{ error: 'The service answered 502: 502 Bad Gateway', errorDescription: '502 Bad Gateway', httpCode: '502' }]);
		expectNoSecret(result);
	}, 30_000);

	it('an upload refusal that echoes the access token from the body', async () => {
		const result = await run('subscriber', 'upload', { emailAddresses: 'a@example.com' });
		expect(result.error?.message).toMatch(/^Subscriber upload refused: access_token unknown: .*"access_token":"\[redacted\]"/);
		expectNoSecret(result);
	});
});
