// An AI agent using the node: a real n8n workflow with n8n's AI Agent node, its OpenAI chat model pointed
// (credential base URL) at a small OpenAI-compatible server this test starts, and the Job Signals node attached
// as a tool (the `jobSignalsTool` variant n8n generates from usableAsTool). The "model" answers the first chat
// completion with a call to the Job Signals tool (python jobs in Berlin) and the second with a final message
// built from the tool's result, so the test sees both what the node ran with and what reached the model.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { N8N_VERSION } from '../../harness/n8n/config.mts';
import type { N8nInstance } from '../../harness/n8n/deployment.mts';
import { CREDENTIAL, DEMO_TOKEN, executeWorkflow, type RealN8n } from '../../harness/n8n/real-n8n.mts';
import { useSharedN8n } from '../../harness/n8n/shared-n8n.mts';

/**
 * n8n 1.85 removed the switch that once kept community nodes from agents (N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE,
 * n8n PR #14042): on every tested version (harness/n8n/version-matrix.mts runs this file on each) the tool works
 * with nothing set, and this test makes sure nothing is.
 */
const REMOVED_SWITCH = 'N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE';
const OPENAI_CREDENTIAL = { id: 'e2eFakeOpenAi', name: 'Fake OpenAI e2e' };
const TOOL_ARGUMENTS = { search: 'python', locations: 'Berlin' };
const FINAL_PREFIX = 'Found these jobs:';

interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
	tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}
interface ChatRequest {
	model: string;
	stream?: boolean;
	messages: ChatMessage[];
	tools?: { type: string; function: { name: string; description?: string; parameters?: { properties?: Record<string, { description?: string }> } } }[];
}

/** The fake model: every request it got, in order. */
const requests: ChatRequest[] = [];
let model: Server;
let modelUrl: string;
let deployment: N8nInstance;
let n8n: RealN8n;

const text = (content: unknown): string =>
	typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';

/** The assistant's turn: a call to the Job Signals tool first, then a final answer quoting the tool's result. */
function answer(request: ChatRequest): { content: string | null; tool_calls?: object[] } {
	const toolMessage = request.messages.find((message) => message.role === 'tool');
	if (toolMessage) return { content: `${FINAL_PREFIX} ${text(toolMessage.content)}` };
	const tool = request.tools?.find((candidate) => /job/i.test(candidate.function.name));
	if (!tool) return { content: 'No Job Signals tool was offered.' };
	return {
		content: null,
		tool_calls: [{ id: 'call_job_search_1', type: 'function', function: { name: tool.function.name, arguments: JSON.stringify(TOOL_ARGUMENTS) } }],
	};
}

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function serveChat(body: ChatRequest, response: ServerResponse): void {
	const message = answer(body);
	const finish = message.tool_calls ? 'tool_calls' : 'stop';
	const base = { id: `chatcmpl-${requests.length}`, created: Math.floor(Date.now() / 1000), model: body.model };
	if (!body.stream) {
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({
				...base,
				object: 'chat.completion',
				choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
				usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
			}),
		);
		return;
	}
	response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	const chunk = (delta: object, finishReason: string | null) =>
		`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
	const delta = message.tool_calls
		? { role: 'assistant', content: null, tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }
		: { role: 'assistant', content: message.content };
	response.end(`${chunk(delta, null)}${chunk({}, finish)}data: [DONE]\n\n`);
}

async function startModel(): Promise<void> {
	model = createServer((request, response) => {
		void (async () => {
			const raw = await readBody(request);
			if (request.method === 'POST' && request.url?.endsWith('/chat/completions')) {
				const body = JSON.parse(raw) as ChatRequest;
				requests.push(body);
				serveChat(body, response);
				return;
			}
			response.writeHead(404, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ error: { message: `not served by the test model: ${request.method} ${request.url}` } }));
		})();
	});
	await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
	modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
}

const AGENT_WORKFLOW = {
	id: 'e2eAiAgent',
	name: 'e2e AI agent with the Job Signals tool',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		{ id: 'agent-t', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'agent-a',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			// The version a new AI Agent node gets: 3.1 in n8n 2 (which 1.123.81 does not have), 3 in n8n 1.123.
			typeVersion: N8N_VERSION.startsWith('1.') ? 3 : 3.1,
			position: [220, 0],
			parameters: { promptType: 'define', text: 'Which Python jobs are open in Berlin?', options: {} },
		},
		{
			id: 'agent-m',
			name: 'OpenAI Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.2,
			position: [120, 200],
			parameters: { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
			credentials: { openAiApi: OPENAI_CREDENTIAL },
		},
		{
			id: 'agent-j',
			name: 'Job Signals',
			type: 'n8n-nodes-job-signals.jobSignalsTool',
			// The version a node added now gets: Output Simplified (at most 10 fields per job; job_id among them).
			typeVersion: 3,
			position: [320, 200],
			parameters: {
				resource: 'job',
				operation: 'search',
				search: "={{ $fromAI('search', 'Words the job posting must contain; commas separate alternatives', 'string') }}",
				locations: "={{ $fromAI('locations', 'City or region of the job', 'string') }}",
				returnAll: false,
				limit: 5,
			},
			credentials: { jobSignalsApi: CREDENTIAL },
		},
	],
	connections: {
		Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
		'Job Signals': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
	},
	pinData: {},
};

beforeAll(async () => {
	await startModel();
	if (process.env[REMOVED_SWITCH] !== undefined) throw new Error(`${REMOVED_SWITCH} is set in this environment: unset it, this test shows the tool works without it`);
	deployment = await useSharedN8n(['--jobs', '3000', '--rate-limit', '0'], [], async (started) => {
		await started.importCredentials([{ ...OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-e2e-not-a-real-key', url: modelUrl, header: false } }]);
		await started.importWorkflows([AGENT_WORKFLOW]);
	});
	n8n = deployment.n8n;
});

afterAll(async () => {
	await deployment?.close();
	await new Promise((resolve) => (model ? model.close(resolve) : resolve(undefined)));
});

describe('an AI agent in a real n8n', () => {
	it('calls the Job Signals tool with the arguments the model chose, and its result reaches the model', async () => {
		const run = await executeWorkflow(n8n, AGENT_WORKFLOW.id);
		const failure = run.data.resultData.error?.message;
		expect(failure, `the workflow failed: ${failure}; model requests: ${requests.length}`).toBeUndefined();

		// What the service answers for the model's arguments (the node's own first page, limited to 5).
		const query = new URLSearchParams({ search: TOOL_ARGUMENTS.search, locations: TOOL_ARGUMENTS.locations, offset: '0' });
		const response = await fetch(`${n8n.mock.apiUrl}/jobs?${query}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
		expect(response.ok).toBe(true);
		const expectedJobs = ((await response.json()) as { data: { job_id: string; job_title: string }[] }).data.slice(0, 5);
		expect(expectedJobs.length).toBeGreaterThan(0);

		// The first request offered the tool, with the operation's action and the parameters the model may set.
		expect(requests.length).toBe(2);
		const offered = requests[0].tools?.find((tool) => /job/i.test(tool.function.name));
		expect(offered, JSON.stringify(requests[0].tools)).toBeDefined();
		expect(offered?.function.description).toMatch(/search jobs/i);
		expect(Object.keys(offered?.function.parameters?.properties ?? {}).sort()).toEqual(['locations', 'search']);

		// The tool node ran with the model's arguments, and returned the service's jobs.
		const toolRuns = run.data.resultData.runData['Job Signals'] as unknown as {
			inputOverride?: { ai_tool?: { json: Record<string, unknown> }[][] };
			data?: { ai_tool?: { json: Record<string, unknown> }[][] };
			error?: { message: string };
		}[];
		expect(toolRuns, 'the Job Signals tool did not run').toHaveLength(1);
		expect(toolRuns[0].error).toBeUndefined();
		expect(toolRuns[0].inputOverride?.ai_tool?.[0]?.[0]?.json).toMatchObject(TOOL_ARGUMENTS);
		const toolOutput = JSON.stringify(toolRuns[0].data?.ai_tool);
		for (const job of expectedJobs) expect(toolOutput).toContain(job.job_id);

		// The second request carried the tool's result back to the model, and the agent's answer was built from it.
		const toolMessage = requests[1].messages.find((message) => message.role === 'tool');
		expect(toolMessage?.tool_call_id).toBe('call_job_search_1');
		for (const job of expectedJobs) expect(text(toolMessage?.content)).toContain(job.job_id);
		// Simplified output: every job the model read has at most 10 fields, the documented ones.
		const toolJobs = (toolRuns[0].data?.ai_tool?.[0] ?? []).map((item) => item.json);
		expect(toolJobs.map((job) => job.job_id)).toEqual(expectedJobs.map((job) => job.job_id));
		for (const job of toolJobs) expect(Object.keys(job)).toEqual(['job_id', 'title', 'company', 'domain', 'location', 'job_functions', 'link', 'created_at']);
		const sentToModel = JSON.parse(text(toolMessage?.content)) as unknown;
		const records = (Array.isArray(sentToModel) ? sentToModel : [sentToModel]) as Record<string, unknown>[];
		expect(records.map((job) => job.job_id)).toEqual(expectedJobs.map((job) => job.job_id));
		for (const job of records) expect(Object.keys(job).length).toBeLessThanOrEqual(10);
		const agentOutput = run.data.resultData.runData['AI Agent']?.[0]?.data?.main[0][0].json.output as string;
		expect(agentOutput.startsWith(FINAL_PREFIX)).toBe(true);
		expect(agentOutput).toContain(expectedJobs[0].job_id);
	});
});
