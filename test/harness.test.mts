/**
 * The harness itself, checked with n8n's own HTTP Request node against the
 * in-process mock: the engine runs, credentials are applied, errors surface,
 * items carry pairedItem. And the free ports every real n8n and mock get.
 */
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SIGNAL_CATEGORIES } from '../contract/hierarchy';
import { HarnessCredentialsHelper } from '../harness/in-process/credentials-helper.mts';
import { listSearch, loadOptions } from '../harness/in-process/load-options.mts';
import { useMockService, MOCK_API_URL } from '../harness/in-process/mock.mts';
import { loadPackages, type Packages } from '../harness/in-process/packages.mts';
import { workflowRuntime } from '../harness/in-process/runtime.mts';
import { runNode } from '../harness/in-process/workflow.mts';
import { freePort, isPortFree } from '../harness/n8n/ports.mts';

const mock = useMockService();

const HTTP_REQUEST = 'n8n-nodes-base.httpRequest';
const JOB_SIGNALS = 'n8n-nodes-job-signals.jobSignals';

/** HTTP Request as a user sets it up: a header auth credential carrying the bearer token. */
const httpGet = (path: string, extra: Record<string, unknown> = {}) => ({
	type: HTTP_REQUEST,
	parameters: {
		method: 'GET',
		url: `${MOCK_API_URL}${path}`,
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		...extra,
	},
	credentials: { httpHeaderAuth: { name: 'Authorization', value: `Bearer ${mock.credentials.apiToken as string}` } },
});

describe('harness: HTTP Request node through WorkflowExecute against the in-process mock', () => {
	it('GET with header auth returns the mock\'s data, one item per input item, each paired to its input', async () => {
		const run = await runNode({ ...httpGet('/signals/problems?per_page=3'), input: [{ n: 1 }, { n: 2 }] });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(2);
		for (const [index, item] of run.items.entries()) {
			const body = item.json as { group: string; signals: Array<{ info: { group: string } }> };
			expect(body.group).toBe('problems');
			expect(body.signals).toHaveLength(3);
			expect(body.signals.every((s) => s.info.group === 'problems')).toBe(true);
			expect(item.pairedItem).toEqual({ item: index });
		}
		const requests = mock.requests();
		expect(requests).toHaveLength(2);
		expect(requests[0].headers.get('authorization')).toBe(`Bearer ${mock.credentials.apiToken as string}`);
		expect(new URL(requests[0].url).searchParams.get('per_page')).toBe('3');
	});

	it('a rejected token surfaces as the node\'s error and stops the run', async () => {
		const run = await runNode({
			...httpGet('/signals/problems'),
			credentials: { httpHeaderAuth: { name: 'Authorization', value: 'Bearer wrong-token' } },
		});
		expect(run.error).toBeInstanceOf(Error);
		expect(run.error?.name).toBe('NodeApiError');
		expect(run.error?.httpCode).toBe('400');
		expect(JSON.stringify(run.error)).toMatch(/Invalid API token/);
		expect(run.items).toEqual([]);
		expect(mock.answers().map((a) => a.status)).toEqual([400]);
	});

	it('with continueRegularOutput the error becomes an item, paired to its input', async () => {
		const run = await runNode({ ...httpGet('/jobs/job_does_not_exist'), onError: 'continueRegularOutput', input: [{ a: 1 }] });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json.error).toBeDefined();
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('with continueErrorOutput the failed item goes to the error output, the good one to the success output', async () => {
		const get = httpGet('');
		const run = await runNode({
			...get,
			parameters: { ...get.parameters, url: `=${MOCK_API_URL}{{ $json.path }}` },
			onError: 'continueErrorOutput',
			input: [{ path: '/collections' }, { path: '/jobs/job_does_not_exist' }],
		});
		expect(run.error).toBeUndefined();
		const [success, failure] = run.outputs;
		expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(Array.isArray(success[0].json.data)).toBe(true);
		expect(failure.map((item) => item.pairedItem)).toEqual([{ item: 1 }]);
		expect(failure[0].json.error).toBeDefined();
	});
});

describe('harness: credentials', () => {
	it('HTTP Request with the predefined Job Signals credential gets the bearer header from its generic authenticate', async () => {
		const run = await runNode({
			type: HTTP_REQUEST,
			parameters: { url: `${MOCK_API_URL}/collections`, authentication: 'predefinedCredentialType', nodeCredentialType: 'jobSignalsApi' },
			credentials: { jobSignalsApi: mock.credentials },
		});
		expect(run.error).toBeUndefined();
		expect(Array.isArray(run.items[0].json.data)).toBe(true);
		expect(mock.requests()[0].headers.get('authorization')).toBe(`Bearer ${mock.credentials.apiToken as string}`);
	});

	it('a generic authenticate resolves expressions in keys and values of headers, qs and body, keeping what the request had', async () => {
		const credentialType = {
			name: 'exampleApi',
			displayName: 'Example',
			properties: [],
			authenticate: {
				type: 'generic' as const,
				properties: {
					headers: { '={{"X-" + $credentials.kind}}': '=Token {{$credentials.token}}' },
					qs: { api_key: '={{$credentials.token}}', fixed: 'plain' },
					body: { access_token: '={{$credentials.token}}' },
				},
			},
		};
		const packages = { credential: () => credentialType } as unknown as Packages;
		const helper = new HarnessCredentialsHelper(packages, {});
		const node = { id: 'n', name: 'N', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
		const workflow = new workflowRuntime.Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: (await loadPackages()).nodeTypes });
		const request = await helper.authenticate(
			{ kind: 'Auth', token: 's3cret' },
			'exampleApi',
			{ url: 'http://x.test', headers: { Accept: 'application/json' }, qs: { page: 2 }, body: { emails: 'a@b.co' } },
			workflow,
			node,
		);
		expect(request.headers).toEqual({ Accept: 'application/json', 'X-Auth': 'Token s3cret' });
		expect(request.qs).toEqual({ page: 2, api_key: 's3cret', fixed: 'plain' });
		expect(request.body).toEqual({ emails: 'a@b.co', access_token: 's3cret' });
	});
});

describe('harness: loadOptions and listSearch through LoadOptionsContext', () => {
	it('loadOptions reads the current parameters', async () => {
		const options = await loadOptions({ type: JOB_SIGNALS, method: 'getSignalCategories', parameters: { resource: 'signal', operation: 'getAll', group: 'changes' } });
		const changes = SIGNAL_CATEGORIES.filter((c) => c.group === 'changes').map((c) => c.id);
		expect(options.map((o) => o.value).filter((v) => v !== '')).toEqual(changes);
	});

	it('listSearch calls the API with the credential', async () => {
		const result = await listSearch({ type: JOB_SIGNALS, method: 'searchCollections', credentials: { jobSignalsApi: mock.credentials } });
		expect(result.results.length).toBeGreaterThan(0);
		expect(mock.requests().map((r) => new URL(r.url).pathname)).toEqual(['/v2/collections']);
	});
});

describe('harness: free ports', () => {
	it('freePort gives free loopback ports below the kernel\'s ephemeral range, where outgoing connections take theirs', async () => {
		const ephemeralFloor = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
		const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
		expect(new Set(ports).size).toBe(ports.length);
		for (const port of ports) {
			expect(port).toBeGreaterThanOrEqual(20_000);
			expect(port).toBeLessThan(ephemeralFloor);
			expect(await isPortFree(port)).toBe(true);
		}
		// An outgoing connection's own port comes from the ephemeral range: it can never take a port freePort gave. The
		// connection is made by a child process (MSW, active in this file, stands in for sockets made here).
		const server = createServer();
		const seen = new Promise<number | undefined>((resolve) => {
			server.once('connection', (socket) => {
				resolve(socket.remotePort);
				socket.destroy();
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		const client = spawn(process.execPath, ['-e', `require('node:net').connect(${port}, '127.0.0.1').on('error', () => {})`], { stdio: 'ignore' });
		expect(await seen).toBeGreaterThanOrEqual(ephemeralFloor);
		client.kill();
		await new Promise((resolve) => server.close(resolve));
	});
});
