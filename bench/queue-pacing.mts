/**
 * `npm run bench:queue-pacing`: the action node's rate-limit pacing in n8n's queue mode. Two workers (each
 * running at most 2 executions at once, so both take work) run 4 executions at the same time, each a Return
 * All of a job search, against one account whose budget is the service's 60 requests per window (the window
 * scaled to 6 s by the mock's --time-scale 0.1). Each worker paces by itself from the service's X-RateLimit
 * headers and waits out a 429's Retry-After. A counting proxy between n8n and the mock gives the calls and the
 * 429s; n8n's executions give the items, compared with the mock's own total. Fails only if data is lost.
 */
import { createServer, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { freePort } from '../harness/n8n/ports.mts';
import { executionsOf, startDeployment } from '../harness/n8n/deployment.mts';
import { DEMO_TOKEN, jobCreatedEnvelope, triggerNode } from '../harness/n8n/real-n8n.mts';

const EXECUTIONS = 4;
const SEARCH = 'engineer';
const WEBHOOK_ID = '5d2f7a90-1e4b-4c8d-9a6f-3b0e2c7d1f48';
/** The job search's credential: the mock through the counting proxy. */
const PACING_CREDENTIAL = { id: 'e2ePacingCred', name: 'Job Signals pacing' };

async function countingProxy(target: string) {
	const port = await freePort();
	const statuses = new Map<number, number>();
	const server = createServer((incoming, answer) => {
		const url = new URL(target);
		const forward = request({ host: url.hostname, port: url.port, path: incoming.url, method: incoming.method, headers: incoming.headers }, (response) => {
			statuses.set(response.statusCode ?? 0, (statuses.get(response.statusCode ?? 0) ?? 0) + 1);
			answer.writeHead(response.statusCode ?? 502, response.headers);
			response.pipe(answer);
		});
		forward.on('error', () => answer.writeHead(502).end());
		incoming.pipe(forward);
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${port}`, statuses, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('bench: rate-limit pacing on two queue-mode workers', () => {
	it('shares one account budget without losing items', async () => {
		let proxy: Awaited<ReturnType<typeof countingProxy>> | undefined;
		const deployment = await startDeployment(
			'queue',
			['--rate-limit', '60', '--time-scale', '0.1', '--jobs', '20000', '--sources', '400'],
			[`webhook/${WEBHOOK_ID}/webhook`],
			async (n8n) => {
				proxy = await countingProxy(n8n.mock.appUrl);
				await n8n.importCredentials([{ ...PACING_CREDENTIAL, type: 'jobSignalsApi', data: { apiToken: DEMO_TOKEN, baseUrl: `${proxy.url}/v2`, appUrl: proxy.url, accessToken: '' } }]);
				await n8n.importWorkflows([
					{
						id: 'e2ePacing',
						name: 'e2ePacing',
						active: false,
						settings: { executionOrder: 'v1' },
						nodes: [
							triggerNode({ id: 'e2ePacing', webhookId: WEBHOOK_ID, registration: 'manual' }),
							{ id: 'search', name: 'Job Signals', type: 'n8n-nodes-job-signals.jobSignals', typeVersion: 1, position: [220, 0], parameters: { resource: 'job', operation: 'search', search: SEARCH, returnAll: true }, credentials: { jobSignalsApi: PACING_CREDENTIAL } },
						],
						connections: { 'Job Signals Trigger': { main: [[{ node: 'Job Signals', type: 'main', index: 0 }]] } },
						pinData: {},
					},
				]);
				await n8n.publish('e2ePacing');
			},
			{ N8N_CONCURRENCY_PRODUCTION_LIMIT: '2' },
		);
		try {
			const total = ((await (await fetch(`${deployment.n8n.mock.apiUrl}/jobs?search=${SEARCH}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } })).json()) as { metrics: { count_jobs: number } }).metrics.count_jobs;
			proxy!.statuses.clear();
			const started = performance.now();
			// Four deliveries to the trigger start the four executions (its answer to a probe's empty body starts none).
			await Promise.all(
				Array.from({ length: EXECUTIONS }, (_, i) =>
					fetch(`${deployment.webhookBases[i % 2]}webhook/${WEBHOOK_ID}/webhook`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify(jobCreatedEnvelope(`pacing-${i}`)),
					}),
				),
			);
			const executions = await executionsOf(deployment, 'e2ePacing');
			const seconds = (performance.now() - started) / 1000;
			const items = executions.map((e) => (e.data.match(/"job_id"/g) ?? []).length);
			const calls = [...proxy!.statuses.values()].reduce((a, b) => a + b, 0);
			const floor = (Math.ceil(total / 100) * EXECUTIONS) / 60 * 6 - 6;
			console.log(
				[
					`[bench:queue-pacing] ${EXECUTIONS} executions on 2 workers, each a Return All of ${total} jobs (${Math.ceil(total / 100)} pages), one account at 60 requests per 6 s window`,
					`  calls: ${calls} (${[...proxy!.statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}); ${seconds.toFixed(1)} s for all, floor ${Math.max(0, floor).toFixed(1)} s`,
					`  executions: ${executions.map((e) => e.status).join(', ')}; job_id fields per execution: ${items.join(', ')} (expected at least ${total} each)`,
				].join('\n'),
			);
			expect(executions).toHaveLength(EXECUTIONS);
			expect(executions.every((e) => e.status === 'success')).toBe(true);
			expect(items.every((count) => count >= total)).toBe(true);
		} finally {
			await deployment.close();
			await proxy?.close();
		}
	}, 900_000);
});
