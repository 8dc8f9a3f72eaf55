// The credential: its test as n8n runs it (the node's credentialTest method, found through testedBy), its refusal of plain http to another machine, and Requests per Minute.
import { http, HttpResponse } from 'msw';
import type { ICredentialDataDecryptedObject, ICredentialTestFunction, INodeType } from 'n8n-workflow';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { additionalData } from '../../harness/in-process/additional-data.mts';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { loadPackages } from '../../harness/in-process/packages.mts';
import { coreRuntime } from '../../harness/in-process/runtime.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { api, NODE_TYPE } from './direct.mts';

// rateLimit 0: the mock reports no budget, so the node paces by the credential alone.
const mock = useMockService({ ...SMALL_MOCK, rateLimit: 0 });

const NODE_TYPES = [NODE_TYPE, 'n8n-nodes-job-signals.jobSignalsTrigger', 'n8n-nodes-job-signals.jobSignalsPollTrigger'];

/** What n8n's CredentialsTester does: the credential type's own test, else the first node's testedBy method. */
async function credentialTest(data: ICredentialDataDecryptedObject) {
	const packages = await loadPackages();
	expect(packages.credential('jobSignalsApi').test).toBeUndefined();
	let test: ICredentialTestFunction | undefined;
	for (const type of NODE_TYPES) {
		const node = packages.node(type) as INodeType;
		const versions = 'nodeVersions' in node ? Object.values((node as unknown as { nodeVersions: Record<number, INodeType> }).nodeVersions) : [node];
		for (const version of versions) {
			const ref = version.description.credentials?.find((c) => c.name === 'jobSignalsApi');
			expect(ref?.testedBy, type).toBe('jobSignalsApiTest');
			const method = version.methods?.credentialTest?.jobSignalsApiTest;
			expect(method, type).toBeTypeOf('function');
			test ??= method;
		}
	}
	const context = new coreRuntime.CredentialTestContext(
		additionalData({ packages, credentials: {}, workflowData: { id: 'w', name: 'w', active: false, isArchived: false, nodes: [], connections: {}, createdAt: new Date(), updatedAt: new Date(), activeVersionId: null } }),
	);
	return await test!.call(context, { id: 'c', name: 'Job Signals', type: 'jobSignalsApi', data });
}

describe('credential test', () => {
	it('a good token passes; a wrong one says so in words and what to do, never the token', async () => {
		expect(await credentialTest(mock.credentials)).toEqual({ status: 'OK', message: 'Connection successful' });
		const wrong = await credentialTest({ ...mock.credentials, apiToken: 'wrong-token-123' });
		expect(wrong).toEqual({ status: 'Error', message: 'Invalid API token — copy it again from the service\'s web application (Settings → API)' });
		expect(mock.requests().at(-1)?.headers.get('authorization')).toBe('Bearer wrong-token-123');
	});

	it('an API Base URL where nothing answers names the URL and what happened', async () => {
		// A port nothing listens on (taken, then freed; fetch refuses some low ports outright, such as 1). Not under /v2:
		// the in-process mock answers /v2 paths on any host.
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const baseUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/api`;
		await new Promise((resolve) => closed.close(resolve));
		expect(await credentialTest({ ...mock.credentials, baseUrl })).toEqual({
			status: 'Error',
			message: `The API Base URL does not answer: ${baseUrl} (connection refused). Check the address, and that n8n can reach it.`,
		});
	});

	it('an API Base URL that answers, but not as the service (a web server\'s 404 page), says so', async () => {
		const server = createServer((_request, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<html><head><title>404 Not Found</title></head></html>'));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		try {
			expect(await credentialTest({ ...mock.credentials, baseUrl })).toEqual({
				status: 'Error',
				message: `The API Base URL answers, but not as the service: ${baseUrl} answered 404 with an HTML page ("404 Not Found"). Use the API root including its version, e.g. https://api.example.com/v2.`,
			});
		} finally {
			server.close();
		}
	});

	it('a base URL without a scheme says what is wrong, before any call', async () => {
		const before = mock.requests().length;
		expect(await credentialTest({ ...mock.credentials, baseUrl: 'api.example.com/v2' })).toEqual({
			status: 'Error',
			message: 'API Base URL must start with http:// or https://, e.g. https://api.example.com/v2',
		});
		expect(mock.requests()).toHaveLength(before);
	});
});

describe('credential test: the token only over https, or plain http to this machine (tls-only.ts)', () => {
	it('a remote http:// API Base URL is refused, in the words the nodes use, without sending the token', async () => {
		const baseUrl = 'http://api.remote.example/v2';
		const result = await credentialTest({ ...mock.credentials, baseUrl });
		const words =
			'The API Base URL http://api.remote.example/v2 uses plain http:// to api.remote.example, which is not this machine: the API token would cross the network unencrypted, so nothing was sent. Use https:// (plain http:// only for a local mock on 127.0.0.1, localhost or [::1]).';
		expect(result).toEqual({ status: 'Error', message: words });
		expect(mock.requests()).toEqual([]);
		const run = await runNode({ type: NODE_TYPE, parameters: { resource: 'job', operation: 'getFilters' }, credentials: { jobSignalsApi: { ...mock.credentials, baseUrl } } });
		expect(run.error?.message).toBe(words);
		expect(mock.requests()).toEqual([]);
	});

	it('the forms that could fool a text check are refused too; a token in the URL does not show', async () => {
		for (const baseUrl of ['http://127.0.0.1.evil.com/v2', 'http://localhost.evil.com/v2', 'http://evil.com#@127.0.0.1', 'http://127.0.0.1@evil.com/v2', 'HTTP://EVIL.COM/v2', 'http://[::ffff:127.0.0.1]/v2']) {
			const result = await credentialTest({ ...mock.credentials, baseUrl });
			expect(result.status, baseUrl).toBe('Error');
			expect(result.message, baseUrl).toMatch(/^The API Base URL .* uses plain http:\/\/ to .*, which is not this machine: .* Use https:\/\//);
		}
		const token = String(mock.credentials.apiToken);
		const withToken = await credentialTest({ ...mock.credentials, baseUrl: `http://evil.com/v2?key=${token}` });
		expect(withToken.message).not.toContain(token);
		expect(mock.requests()).toEqual([]);
	});

	it('https:// and plain http:// to this machine (127.0.0.1, localhost, [::1], 0x7f000001) are tested as before', async () => {
		for (const [baseUrl, sentTo] of [
			['https://api.remote.example/v2', 'https://api.remote.example'],
			['http://127.0.0.1:4010/v2', 'http://127.0.0.1:4010'],
			['http://localhost:4010/v2', 'http://localhost:4010'],
			['http://[::1]:4010/v2', 'http://[::1]:4010'],
			['http://0x7f000001:4010/v2', 'http://127.0.0.1:4010'],
		]) {
			const from = mock.requests().length;
			expect(await credentialTest({ ...mock.credentials, baseUrl }), baseUrl).toEqual({ status: 'OK', message: 'Connection successful' });
			expect(mock.requests().slice(from).map((request) => new URL(request.url).origin), baseUrl).toEqual([sentTo]);
		}
	});
});

describe('credential test: redirects, by the nodes\' rule (tls-only.ts): within the origin only', () => {
	const redirecting = (location: (url: URL) => string | undefined) =>
		http.get('https://api.moved.example/v2/collections', ({ request }) => {
			const to = location(new URL(request.url));
			return to === undefined ? undefined : new HttpResponse(null, { status: 302, headers: { location: to } });
		});
	async function testWith(handler: ReturnType<typeof http.get>) {
		const handlers = mock.service.handlers;
		handlers.unshift(handler);
		try {
			const from = mock.requests().length;
			const result = await credentialTest({ ...mock.credentials, baseUrl: 'https://api.moved.example/v2' });
			return { result, sent: mock.requests().slice(from) };
		} finally {
			handlers.splice(handlers.indexOf(handler), 1);
		}
	}

	it('to a sub-domain: not followed; the test fails naming the target, and nothing reaches it', async () => {
		const { result, sent } = await testWith(redirecting(() => 'https://eu.api.moved.example/v2/collections'));
		expect(result).toEqual({
			status: 'Error',
			message:
				"The service answered 302 with a redirect to https://eu.api.moved.example/v2/collections, another origin than https://api.moved.example: the credential's tokens go to the API Base URL's own origin only (a sub-domain, another port or http:// is another origin), so the redirect was not followed. If the service has moved, put its new address into the API Base URL.",
		});
		expect(sent.map((request) => request.url)).toEqual(['https://api.moved.example/v2/collections']);
	});

	it('within the origin: followed with the token, and the test passes', async () => {
		const { result, sent } = await testWith(redirecting((url) => (url.searchParams.has('moved') ? undefined : '/v2/collections?moved=1')));
		expect(result).toEqual({ status: 'OK', message: 'Connection successful' });
		expect(sent.map((request) => [request.url, request.headers.get('authorization')])).toEqual([
			['https://api.moved.example/v2/collections', `Bearer ${String(mock.credentials.apiToken)}`],
			['https://api.moved.example/v2/collections?moved=1', `Bearer ${String(mock.credentials.apiToken)}`],
		]);
	});
});

describe('Requests per Minute', () => {
	it('a raised limit in the credential lets 90 calls through at once (the default 60 would hold the 61st for about a minute)', async () => {
		const source = ((await api('/collections')).data as { collection_id: string }[])[0];
		const started = Date.now();
		const run = await runNode({
			type: NODE_TYPE,
			parameters: { resource: 'source', operation: 'getAllInCollection', collection: { __rl: true, mode: 'id', value: source.collection_id }, returnAll: false, limit: 1 },
			credentials: { jobSignalsApi: { ...mock.credentials, requestsPerMinute: 1000 } },
			input: Array.from({ length: 90 }, () => ({})),
		});
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(90);
		// Far from both sides: 90 local calls take a few seconds even under load; the 60/min fallback would take 60 s or more.
		expect(Date.now() - started).toBeLessThan(45_000);
	}, 120_000);
});
