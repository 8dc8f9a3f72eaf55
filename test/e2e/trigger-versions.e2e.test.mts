// The webhook trigger's version 1.1 in a real `n8n start` (regular mode: the run's shared n8n, harness/n8n/shared-n8n.mts):
// its filters (a dropped event is answered 200 with the reason and starts nothing; a passing one starts once), its
// Simplified items, and n8n's body parsing, which differs by version: n8n 2.40.7 evaluates the Webhook-v1 expression
// $parameter["options"]["binaryData"] for a start node at typeVersion 1 only (webhook-helpers, parseRequestBody), and
// from a version above 1 parses a body by its content type.
import { randomUUID } from 'node:crypto';
import { parse } from 'flatted';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggerWorkflow, type TriggerWorkflow } from '../../harness/n8n/real-n8n.mts';
import { executionsOf, executionsPerId, type N8nInstance } from '../../harness/n8n/deployment.mts';
import { useSharedN8n } from '../../harness/n8n/shared-n8n.mts';

const FILTERED: TriggerWorkflow = {
	id: 'e2eTriggerFiltered',
	webhookId: '3f6a1b2c-4d5e-4f70-8a9b-0c1d2e3f4a51',
	registration: 'manual',
	parameters: { signalFilters: { groups: ['problems'], minSeverity: 2 }, jobFilters: { companies: 'keep.example, src_keep' } },
};
const V1: TriggerWorkflow = { id: 'e2eTriggerV1', webhookId: '3f6a1b2c-4d5e-4f70-8a9b-0c1d2e3f4a52', registration: 'manual', typeVersion: 1 };
const V11: TriggerWorkflow = { id: 'e2eTriggerV11', webhookId: '3f6a1b2c-4d5e-4f70-8a9b-0c1d2e3f4a53', registration: 'manual' };
const ALL = [FILTERED, V1, V11];

let deployment: N8nInstance;
const run = randomUUID().slice(0, 8);
const id = (name: string) => `e2e-${run}-${name}`;

const job = (company: string, sourceId: string) => ({
	job_id: `job-${company}`,
	job_title: 'E2E job',
	url_job: `https://careers.${company}/jobs/1`,
	source_id: sourceId,
	url_source: company,
	source_name: company,
	created_at: 1_760_000_000,
	updated_at: 1_760_000_000,
});
const signal = (group: string, category: string, type: string, severity: number) => ({
	signal_id: `sig-${group}-${severity}`,
	created_at: 1_760_000_000,
	date: '2025-10-09',
	info: { group, category, type },
	evidence_list: ['e2e evidence'],
	jobs_list: [],
	signal_match: 2,
	signal_severity: severity,
	signal_classification: 'direct',
	signal_recency: 'active',
	signal_start_at: 1_759_000_000,
	signal_recent_at: 1_760_000_000,
	current_value: '',
	previous_value: '',
	source_id: 'src_keep',
	source_name: 'Keep',
	source_description: '',
	url_source: 'keep.example',
});
const envelope = (name: string, eventType: string, eventData: object) => ({
	webhook_event_id: id(name),
	webhook_id: 'whk_e2e',
	organization_id: 'org_e2e',
	event_type: eventType,
	event_data: eventData,
	created_at: 1_760_000_000,
	updated_at: 1_760_000_000,
});

async function post(trigger: TriggerWorkflow, body: string, contentType?: string): Promise<{ status: number; body: unknown }> {
	const response = await fetch(`${deployment.webhookBases[0]}webhook/${trigger.webhookId}/webhook`, {
		method: 'POST',
		headers: contentType ? { 'content-type': contentType } : {},
		body,
	});
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// n8n's own answer may be text.
	}
	return { status: response.status, body: parsed };
}

const deliver = (trigger: TriggerWorkflow, body: object) => post(trigger, JSON.stringify(body), 'application/json');

/** The items the trigger node output in each execution of the workflow. */
async function outputs(trigger: TriggerWorkflow) {
	return (await executionsOf(deployment, trigger.id)).map((execution) => {
		const data = parse(execution.data) as { resultData: { runData: Record<string, { data?: { main: { json: Record<string, unknown> }[][] } }[]> } };
		return data.resultData.runData['Job Signals Trigger']?.[0]?.data?.main[0].map((item) => item.json) ?? [];
	});
}

beforeAll(async () => {
	deployment = await useSharedN8n(['--jobs', '200', '--signals', '200', '--sources', '20', '--rate-limit', '0'], ALL.map((t) => `webhook/${t.webhookId}/webhook`), async (n8n) => {
		await n8n.importWorkflows(ALL.map(triggerWorkflow));
		for (const trigger of ALL) await n8n.publish(trigger.id);
	});
});

afterAll(async () => {
	await deployment?.close();
});

describe('the trigger\'s version 1.1 in a real n8n', () => {
	it('filters: a dropped event is answered 200 with the reason and starts nothing; a passing one starts once', async () => {
		const dropped = (reason: string) => ({ status: 200, body: { received: true, emitted: false, reason } });
		const started = { status: 200, body: { received: true, emitted: true } };
		expect(await deliver(FILTERED, envelope('job-drop', 'job_created', job('drop.example', 'src_drop')))).toEqual(dropped('company not selected'));
		expect(await deliver(FILTERED, envelope('signal-changes', 'signal', signal('changes', 'tech', 'tech-change-planned', 3)))).toEqual(dropped('signal group changes not selected'));
		expect(await deliver(FILTERED, envelope('signal-mild', 'signal', signal('problems', 'it', 'outdated-legacy-systems', 1)))).toEqual(dropped('signal severity 1 below the minimum 2'));
		expect(await deliver(FILTERED, envelope('job-keep', 'job_created', job('keep.example', 'src_other')))).toEqual(started);
		expect(await deliver(FILTERED, envelope('job-keep-id', 'job_updated', job('other.example', 'src_keep')))).toEqual(started);
		expect(await deliver(FILTERED, envelope('signal-severe', 'signal', signal('problems', 'it', 'outdated-legacy-systems', 3)))).toEqual(started);
		// A repeat of a passing event is a duplicate; a repeat of a dropped one is dropped again.
		expect(await deliver(FILTERED, envelope('job-keep', 'job_created', job('keep.example', 'src_other')))).toEqual(dropped('duplicate webhook_event_id'));
		expect(await deliver(FILTERED, envelope('job-drop', 'job_created', job('drop.example', 'src_drop')))).toEqual(dropped('company not selected'));

		const names = ['job-drop', 'signal-changes', 'signal-mild', 'job-keep', 'job-keep-id', 'signal-severe'];
		const executions = await executionsOf(deployment, FILTERED.id);
		expect(executions.filter((e) => e.status !== 'success')).toEqual([]);
		expect(executionsPerId(executions, names.map(id))).toEqual({
			[id('job-drop')]: 0,
			[id('signal-changes')]: 0,
			[id('signal-mild')]: 0,
			[id('job-keep')]: 1,
			[id('job-keep-id')]: 1,
			[id('signal-severe')]: 1,
		});
		expect(executions).toHaveLength(3);
	});

	it('emits Simplified items: event_type, webhook_event_id and the record\'s fields, at most 10', async () => {
		const items = (await outputs(FILTERED)).flat();
		expect(items).toHaveLength(3);
		for (const item of items) expect(Object.keys(item).length).toBeLessThanOrEqual(10);
		const severe = items.find((item) => item.webhook_event_id === id('signal-severe'));
		expect(severe).toEqual({
			event_type: 'signal',
			webhook_event_id: id('signal-severe'),
			signal_id: 'sig-problems-3',
			company: 'Keep',
			domain: 'keep.example',
			type: 'outdated-legacy-systems',
			severity: 3,
			date: '2025-10-09',
			evidence: 'e2e evidence',
			change: '',
		});
	});

	it('n8n takes its Webhook-v1 branch at version 1 only: it reads a body of any type at 1, only the types it parses at 1.1', async () => {
		// The same branch (nodeVersion === 1) is where n8n evaluates {{$parameter["options"]["binaryData"]}}; from outside,
		// the branch shows in what n8n reads. 2 MiB of octets, chunked (no content-length): read at 1, the node sees the
		// raw bytes and answers 413; not read at 1.1, the node sees no body and answers 400 at once.
		const chunked = (size: number) =>
			new ReadableStream<Uint8Array>({
				start(controller) {
					for (let sent = 0; sent < size; sent += 64 * 1024) controller.enqueue(new Uint8Array(Math.min(64 * 1024, size - sent)).fill(120));
					controller.close();
				},
			});
		const send = async (trigger: TriggerWorkflow) => {
			const response = await fetch(`${deployment.webhookBases[0]}webhook/${trigger.webhookId}/webhook`, {
				method: 'POST',
				headers: { 'content-type': 'application/octet-stream' },
				body: chunked(2 * 1024 * 1024),
				duplex: 'half',
			} as RequestInit);
			return { status: response.status, body: (await response.json()) as unknown };
		};
		expect(await send(V1)).toEqual({ status: 413, body: { received: false, error: 'the body is larger than 1048576 bytes' } });
		// n8n does not read the body: the node gets none.
		expect(await send(V11)).toEqual({ status: 400, body: { received: false, error: 'not a webhook event envelope: the body is missing, not an object' } });
		// A JSON delivery is read and emitted alike at both versions.
		expect(await deliver(V1, envelope('json-v1', 'job_created', job('keep.example', 'src_keep')))).toEqual({ status: 200, body: { received: true, emitted: true } });
		expect(await deliver(V11, envelope('json-v11', 'job_created', job('keep.example', 'src_keep')))).toEqual({ status: 200, body: { received: true, emitted: true } });
		expect(executionsPerId(await executionsOf(deployment, V1.id), [id('json-v1')])).toEqual({ [id('json-v1')]: 1 });
		expect(executionsPerId(await executionsOf(deployment, V11.id), [id('json-v11')])).toEqual({ [id('json-v11')]: 1 });
	});

	it('at 1.1 n8n parses a body by its content type: JSON (with a charset) is read; text, no type or an unknown type is refused with 400', async () => {
		const body = (name: string) => JSON.stringify(envelope(name, 'job_created', job('keep.example', 'src_keep')));
		expect(await post(V11, body('json-charset'), 'application/json; charset=utf-8')).toEqual({ status: 200, body: { received: true, emitted: true } });
		// text/plain: n8n hands the node the text itself, which is no envelope.
		const notAnEnvelope = { status: 400, body: { received: false, error: 'not a webhook event envelope: the body is a string, not an object' } };
		expect(await post(V11, body('text'), 'text/plain')).toEqual(notAnEnvelope);
		// No content type, or one n8n does not parse: the body is not read at all.
		const unread = await post(V11, body('none'));
		const octets = await post(V11, body('octets'), 'application/octet-stream');
		for (const answer of [unread, octets]) {
			expect(answer.status).toBe(400);
			expect(answer.body).toMatchObject({ received: false });
		}
		expect(executionsPerId(await executionsOf(deployment, V11.id), [id('json-charset'), id('text'), id('none'), id('octets')])).toEqual({
			[id('json-charset')]: 1,
			[id('text')]: 0,
			[id('none')]: 0,
			[id('octets')]: 0,
		});
	});
});
