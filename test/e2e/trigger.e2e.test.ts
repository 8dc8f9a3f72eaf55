// The trigger in a real `n8n start`: the workflow is published, registers its production URL with the mock
// (automatic registration), and the mock's delivery engine sends two processing cycles through a proxy that
// fails the first attempt of every other event. n8n's own executions must show each event exactly once.
import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOwner, login, startN8n } from '../../scripts/n8n/local-n8n.mts';
import type { Service } from '../../scripts/n8n/processes.mts';
import { CREDENTIAL, DEMO_TOKEN, freePort, setUpRealN8n, type RealN8n } from './real-n8n';

const WORKFLOW_ID = 'e2eTrigger';
const WEBHOOK_ID = '7d1e9c8a-2b4f-4a6e-9d3c-5f8e7a6b4c21';

let n8n: RealN8n;
let server: Service;
let proxy: Server;
let proxyPort: number;
let n8nPort: number;
const attempts = new Map<string, number>();

/** Forwards deliveries to n8n; answers 500 to the first attempt of every other event (by arrival order). */
function startProxy(n8nPort: number): Promise<Server> {
	let distinct = 0;
	const proxyServer = createServer((incoming, answer) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (c: Buffer) => chunks.push(c));
		incoming.on('end', () => {
			const body = Buffer.concat(chunks);
			let id = '';
			try {
				id = String((JSON.parse(body.toString()) as { webhook_event_id?: unknown }).webhook_event_id ?? '');
			} catch {
				// Forwarded as is: n8n answers what it answers.
			}
			const attempt = (attempts.get(id) ?? 0) + 1;
			attempts.set(id, attempt);
			if (attempt === 1 && distinct++ % 2 === 0) {
				answer.writeHead(500).end('injected first-attempt failure');
				return;
			}
			const forward = request(
				{ host: '127.0.0.1', port: n8nPort, path: incoming.url, method: incoming.method, headers: incoming.headers },
				(response) => {
					answer.writeHead(response.statusCode ?? 502, response.headers);
					response.pipe(answer);
				},
			);
			forward.on('error', () => answer.writeHead(502).end());
			forward.end(body);
		});
	});
	return new Promise((resolve) => proxyServer.listen(proxyPort, '127.0.0.1', () => resolve(proxyServer)));
}

const mockGet = async (path: string, token?: string) =>
	(await (await fetch(`${n8n.mock.appUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })).json()) as {
		data: Record<string, unknown>[];
	};

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const value = await probe();
		if (value !== undefined) return value;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
	n8n = await setUpRealN8n(['--jobs', '3000', '--signals', '3000', '--sources', '100', '--rate-limit', '0', '--time-scale', '0.2']);
	await n8n.importWorkflows([
		{
			id: WORKFLOW_ID,
			name: 'e2e trigger',
			active: false,
			settings: { executionOrder: 'v1' },
			nodes: [
				{
					id: 'e2e-trigger',
					name: 'Job Signals Trigger',
					type: 'n8n-nodes-job-signals.jobSignalsTrigger',
					typeVersion: 1,
					position: [0, 0],
					webhookId: WEBHOOK_ID,
					parameters: { registration: 'automatic', events: ['job_created', 'job_updated', 'job_deleted', 'signal'] },
					credentials: { jobSignalsApi: CREDENTIAL },
				},
			],
			connections: {},
			pinData: {},
		},
	]);
	await n8n.cli(['publish:workflow', `--id=${WORKFLOW_ID}`]);
	n8nPort = await freePort();
	proxyPort = await freePort();
	proxy = await startProxy(n8nPort);
	// n8n advertises the proxy as its webhook URL, so that is what the trigger registers with the mock.
	server = await startN8n(n8n.userFolder, n8nPort, { env: { N8N_WEBHOOK_URL: `http://127.0.0.1:${proxyPort}/` } });
	await ensureOwner(n8nPort);
});

afterAll(async () => {
	await server?.stop();
	proxy?.close();
	await n8n?.close();
});

describe('the trigger in a real n8n', () => {
	it('registers itself, and each event of the cycles starts exactly one execution despite failed first attempts', async () => {
		const url = `http://127.0.0.1:${proxyPort}/webhook/${WEBHOOK_ID}/webhook`;
		const registered = await until('the trigger\'s registration', async () => {
			const { data } = await mockGet('/api/webhooks', DEMO_TOKEN);
			return data.length > 0 ? data : undefined;
		});
		expect(registered).toEqual([expect.objectContaining({ url, event_types: ['job_created', 'job_updated', 'job_deleted', 'signal'] })]);

		const sent: string[] = [];
		for (let cycle = 0; cycle < 2; cycle++) {
			const response = await fetch(`${n8n.mock.appUrl}/__mock/process`, { method: 'POST' });
			const { events } = (await response.json()) as { events: { account_id: string }[] };
			sent.push(...events.filter((e) => e.account_id === 'acc_demo').map(() => 'event'));
		}
		expect(sent.length).toBeGreaterThan(5);

		const deliveries = await until('every delivery to end', async () => {
			const { data } = await mockGet('/__mock/deliveries');
			const done = data.filter((d) => d.outcome === 'delivered' || d.outcome === 'failed');
			return done.length === sent.length ? data : undefined;
		});
		const delivered = new Set(deliveries.filter((d) => d.outcome === 'delivered').map((d) => String(d.webhook_event_id)));
		expect(delivered.size).toBe(sent.length);
		expect(deliveries.some((d) => d.attempt === 2)).toBe(true);
		expect(deliveries.filter((d) => d.outcome === 'retry_scheduled').length).toBe(Math.ceil(sent.length / 2));

		const rest = await login(n8nPort);
		const executions = await until('the executions to be recorded', async () => {
			const response = await rest(`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_ID }))}&limit=500`);
			const body = (await response.json()) as { data: { results: { id: string; status: string }[] } };
			const finished = body.data.results.filter((e) => e.status === 'success');
			return finished.length >= delivered.size ? body.data.results : undefined;
		});
		expect(executions).toHaveLength(delivered.size);
		const seen = new Map<string, number>();
		for (const execution of executions) {
			const detail = (await (await rest(`/rest/executions/${execution.id}`)).json()) as { data: { data: string } };
			for (const id of delivered) if (detail.data.data.includes(id)) seen.set(id, (seen.get(id) ?? 0) + 1);
		}
		expect([...delivered].map((id) => seen.get(id))).toEqual([...delivered].map(() => 1));
	});
});
