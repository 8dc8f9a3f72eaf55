// In a real n8n, with the package installed as a community package: one workflow per resource, run in the run's shared
// n8n (harness/n8n/shared-n8n.mts) through its REST API (as the editor's Execute workflow runs it) against the file's
// standalone mock over real HTTP, its output compared with the mock's own answers. The runs meant to succeed run side by side before the tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../harness/n8n/config.mts';
import type { N8nInstance } from '../../harness/n8n/deployment.mts';
import { CREDENTIAL, DEMO_TOKEN, executeWorkflow, executeWorkflows, nodeOutput, oneNodeWorkflow, type RealN8n, type RunData } from '../../harness/n8n/real-n8n.mts';
import { useSharedN8n } from '../../harness/n8n/shared-n8n.mts';

let deployment: N8nInstance;
let n8n: RealN8n;
/** The runs of the workflows that must succeed, by workflow id, run before the tests. */
let runs: Record<string, RunData>;

const api = async (path: string) => {
	const response = await fetch(`${n8n.mock.apiUrl}${path}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
	if (!response.ok) throw new Error(`${path}: ${response.status}`);
	return (await response.json()) as Record<string, unknown>;
};

const WORKFLOWS = {
	e2eSignals: { resource: 'signal', operation: 'getAll', group: 'problems', category: 'it', directOnly: false, activeOnly: false, returnAll: true },
	e2eJobSearch: { resource: 'job', operation: 'search', search: 'engineer', returnAll: false, limit: 150 },
	e2eCollections: { resource: 'collection', operation: 'getAll', returnAll: true },
	e2eSource: { resource: 'source', operation: 'get', source: { __rl: true, mode: 'id', value: 'src_000002' } },
	e2eUpload: { resource: 'subscriber', operation: 'upload', emailAddresses: 'e2e-one@example.com, e2e-two@example.com, not-an-address' },
	e2eJobSearchAll: { resource: 'job', operation: 'search', search: 'engineer', returnAll: true },
	e2eJobsOfSource: { resource: 'job', operation: 'getAllForSource', source: { __rl: true, mode: 'id', value: 'src_000002' }, returnAll: true },
};

/**
 * A list operation's Return All, the mock path whose answer is spoiled ('after': pages answered well first), and
 * what the error must name: the operation and the page.
 */
const BAD_PAGE_CASES = [
	{ workflow: 'e2eJobSearchAll', path: '/v2/jobs', after: 1, body: 'truncated-json', names: ['Job → Search', 'offset 100'] },
	{ workflow: 'e2eJobSearchAll', path: '/v2/jobs', after: 1, body: 'html', names: ['Job → Search', 'offset 100'] },
	{ workflow: 'e2eJobSearchAll', path: '/v2/jobs', after: 1, body: 'empty', names: ['Job → Search', 'offset 100'] },
	{ workflow: 'e2eJobSearchAll', path: '/v2/jobs', after: 1, body: 'json-string', names: ['Job → Search', 'offset 100'] },
	{ workflow: 'e2eSignals', path: '/v2/signals', after: 0, body: 'wrong-shape', names: ['Signal → Get Many', 'page 1'] },
	{ workflow: 'e2eJobsOfSource', path: '/v2/sources', after: 0, body: 'null-list', names: ['Job → Get Many for Source', 'first page'] },
	{ workflow: 'e2eCollections', path: '/v2/collections', after: 0, body: 'truncated-json', names: ['Collection → Get Many'] },
] as const;

/** The shipped example that npm start imports (Simplify, no Edit Fields), on this test's credential. */
function signalsExample() {
	const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'workflows', 'problem-signals.workflow.json'), 'utf8')) as { nodes: { credentials?: object }[] };
	return { ...example, id: 'e2eExampleSignals', nodes: example.nodes.map((node) => (node.credentials ? { ...node, credentials: { jobSignalsApi: CREDENTIAL } } : node)) };
}

beforeAll(async () => {
	deployment = await useSharedN8n(['--jobs', '5000', '--signals', '5000', '--sources', '200', '--rate-limit', '0'], [], async (started) => {
		await started.importWorkflows([...Object.entries(WORKFLOWS).map(([id, parameters]) => oneNodeWorkflow(id, parameters)), signalsExample()]);
	});
	n8n = deployment.n8n;
	runs = await executeWorkflows(n8n, ['e2eSignals', 'e2eJobSearch', 'e2eCollections', 'e2eSource', 'e2eUpload', 'e2eExampleSignals']);
});

afterAll(async () => {
	await deployment?.close();
});

describe('the package in a real n8n', () => {
	// What the editor lists (/types/nodes.json, which n8n writes only with its editor on: the shared n8n keeps it).
	it('n8n lists the poll trigger among its node types, next to the webhook trigger', async () => {
		const response = await n8n.rest('/types/nodes.json');
		expect(response.status).toBe(200);
		const types = (await response.json()) as { name: string; displayName: string; polling?: boolean; group: string[] }[];
		const ours = types.filter((t) => t.name.startsWith('n8n-nodes-job-signals.'));
		// n8n adds jobSignalsTool itself (the action node is usable as a tool); the triggers are not.
		expect(ours.map((t) => t.name).sort()).toEqual(
			['jobSignals', 'jobSignalsPollTrigger', 'jobSignalsTool', 'jobSignalsTrigger'].map((name) => `n8n-nodes-job-signals.${name}`),
		);
		const poll = ours.find((t) => t.name === 'n8n-nodes-job-signals.jobSignalsPollTrigger')!;
		expect(poll).toMatchObject({ displayName: 'Job Signals (Polling) Trigger', polling: true, group: ['trigger'] });
		// n8n adds Poll Times to a polling node's parameters.
		expect(JSON.stringify(poll)).toContain('"pollTimes"');
	});

	it('signals: every signal of a category, as the API pages them', async () => {
		const output = nodeOutput(runs.e2eSignals);
		const expected: unknown[] = [];
		for (let page = 1; ; page++) {
			const body = await api(`/signals/problems/it?direct_only=false&active_only=false&per_page=1000&page=${page}`);
			expected.push(...(body.signals as unknown[]));
			if (!(body.pagination as { has_next: boolean }).has_next) break;
		}
		expect(expected.length).toBeGreaterThan(0);
		expect(output).toEqual(expected);
	});

	it('jobs: a search limited to 150', async () => {
		const output = nodeOutput(runs.e2eJobSearch);
		const first = await api('/jobs?search=engineer&offset=0');
		const second = await api('/jobs?search=engineer&offset=100');
		expect(output).toEqual([...(first.data as unknown[]), ...(second.data as unknown[])].slice(0, 150));
		expect(output).toHaveLength(150);
	});

	it('collections and a source', async () => {
		expect(nodeOutput(runs.e2eCollections)).toEqual((await api('/collections')).data);
		expect(nodeOutput(runs.e2eSource)).toEqual([await api('/sources/id/src_000002')]);
	});

	it('subscriber upload: valid addresses reach the account, the invalid one is reported', async () => {
		const output = nodeOutput(runs.e2eUpload);
		expect(output).toEqual([{ uploaded: ['e2e-one@example.com', 'e2e-two@example.com'], invalid: ['not-an-address'], duplicates: [] }]);
		const subscribers = (await (await fetch(`${n8n.mock.appUrl}/__mock/accounts/acc_demo/subscribers`)).json()) as { data: { email: string }[] };
		const emails = subscribers.data.map((s) => s.email);
		expect(emails).toContain('e2e-one@example.com');
		expect(emails).toContain('e2e-two@example.com');
		expect(emails).not.toContain('not-an-address');
	});

	it('the shipped signals example: simplified items, the same signals as the API', async () => {
		const output = nodeOutput(runs.e2eExampleSignals, 'Active IT problems');
		const raw = (await api('/signals/problems/it?direct_only=true&active_only=true&per_page=50&page=1')).signals as { source_name: string }[];
		expect(output.length).toBe(Math.min(50, raw.length));
		expect(output.map((item) => item.company)).toEqual(raw.slice(0, 50).map((signal) => signal.source_name));
		expect(output[0]).toMatchObject({ category_name: 'IT' });
		expect(output[0]).not.toHaveProperty('info');
	});

	it.each(BAD_PAGE_CASES)('$workflow: a $body answer on $path after $after good page(s) fails the run, with no partial output', async ({ workflow, path, after, body, names }) => {
		const faults = await fetch(`${n8n.mock.appUrl}/__mock/faults`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ faults: [{ path, body, after, times: 1 }] }),
		});
		expect(faults.status).toBe(200);
		try {
			const run: RunData = await executeWorkflow(n8n, workflow);
			const task = run.data.resultData.runData['Job Signals']?.[0];
			expect(task?.data).toBeUndefined();
			const message = task?.error?.message ?? run.data.resultData.error?.message ?? '';
			// The error names the operation and the page (docs/action-node.md, "Checking answers"); never the token.
			for (const name of names) expect(message).toContain(name);
			expect(JSON.stringify(run)).not.toContain(DEMO_TOKEN);
		} finally {
			await fetch(`${n8n.mock.appUrl}/__mock/faults`, { method: 'DELETE', headers: { 'content-type': 'application/json' } });
		}
	});
});
