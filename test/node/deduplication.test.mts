// Deduplication → Keep New Jobs and Signals, run by n8n-core's WorkflowExecute against the harness's deduplication store.
import { describe, expect, it } from 'vitest';
import type { WorkflowExecuteMode } from 'n8n-workflow';
import { runNode } from '../../harness/in-process/workflow.mts';
import { NODE_TYPE } from './direct.mts';

type Item = Record<string, unknown>;

let workflows = 0;
/** The execution hints of every run, newest last. */
const hints: string[] = [];
/** A workflow of its own per test: the record is the node's, in the workflow. */
function keepNew() {
	const workflowId = `dedupe-${++workflows}`;
	return async (input: Item[], mode: WorkflowExecuteMode = 'trigger') => {
		const run = await runNode({ type: NODE_TYPE, parameters: { resource: 'deduplication', operation: 'keepNew' }, input, mode, workflowId });
		if (run.error) throw run.error;
		hints.push(...run.hints.map((hint) => hint.message));
		return run.items.map((item) => ({ ...item.json, paired: item.pairedItem }));
	};
}

const webhookJob = (id: string, type = 'job_created') => ({ event_type: type, webhook_event_id: `evt-${type}-${id}`, job_id: id, title: `Job ${id}` });
const webhookSignal = (id: string) => ({ event_type: 'signal', webhook_event_id: `evt-signal-${id}`, signal_id: id });
const polledJob = (id: string) => ({ job_id: id, title: `Job ${id}` });
const polledSignal = (id: string) => ({ signal_id: id });

describe('Deduplication → Keep New Jobs and Signals', () => {
	it('passes each job and signal once, whichever trigger brings it first, each item paired with its input', async () => {
		const run = keepNew();
		expect(await run([webhookJob('j1'), webhookSignal('s1')])).toEqual([
			{ ...webhookJob('j1'), paired: { item: 0 } },
			{ ...webhookSignal('s1'), paired: { item: 1 } },
		]);
		// The poll trigger brings j1 and s1 again after a downtime, with j2 and s2 that the webhooks missed.
		expect(await run([polledJob('j2'), polledJob('j1'), polledSignal('s1'), polledSignal('s2')])).toEqual([
			{ ...polledJob('j2'), paired: { item: 0 } },
			{ ...polledSignal('s2'), paired: { item: 3 } },
		]);
		// Polling brought two items no webhook had delivered: the run says so.
		expect(hints.at(-1)).toMatch(/^2 of these came from polling before any webhook delivered them: n8n was down or unreachable/);
		const hinted = hints.length;
		// A late webhook retry of j2 passes nothing on, and says nothing.
		expect(await run([webhookJob('j2')])).toEqual([]);
		expect(hints).toHaveLength(hinted);
	});

	it('a job id and a signal id that are the same string are different records', async () => {
		const run = keepNew();
		expect(await run([polledJob('x1'), polledSignal('x1')])).toHaveLength(2);
	});

	it('job_updated and job_deleted events pass through every time and are not recorded', async () => {
		const run = keepNew();
		const updated = webhookJob('j9', 'job_updated');
		const deleted = webhookJob('j9', 'job_deleted');
		expect(await run([updated, deleted])).toHaveLength(2);
		expect(await run([updated])).toHaveLength(1);
		// j9 was never recorded as seen by them: its creation still passes.
		expect(await run([webhookJob('j9')])).toHaveLength(1);
	});

	it('an id twice in one input passes its first item only', async () => {
		const run = keepNew();
		expect(await run([polledJob('d1'), webhookJob('d1'), polledJob('d2')])).toEqual([
			{ ...polledJob('d1'), paired: { item: 0 } },
			{ ...polledJob('d2'), paired: { item: 2 } },
		]);
	});

	it('a test run (manual) passes everything and records nothing; a retried execution passes everything', async () => {
		const run = keepNew();
		expect(await run([polledJob('m1')], 'manual')).toHaveLength(1);
		expect(await run([polledJob('m1')], 'manual')).toHaveLength(1);
		expect(await run([polledJob('m1')])).toHaveLength(1);
		expect(await run([polledJob('m1')])).toHaveLength(0);
		expect(await run([polledJob('m1')], 'retry')).toHaveLength(1);
	});

	it('an item without job_id or signal_id fails the run, naming the item, and passes nothing on', async () => {
		const run = keepNew();
		const failure = run([polledJob('ok'), { name: 'no id' }]).catch((error: unknown) => error as Error & { description?: string });
		const error = await failure;
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toBe('Item 1 has no job_id or signal_id');
		expect((error as { description?: string }).description).toContain('Connect it right after them');
		// Nothing was recorded: the good item of the failed run still passes.
		expect(await run([polledJob('ok')])).toHaveLength(1);
	});

	it('keeps the newest 10,000 ids: an id older than that passes again', async () => {
		const run = keepNew();
		const MAX_SEEN = 10_000;
		const ids = Array.from({ length: MAX_SEEN + 1 }, (_, i) => `b${i}`);
		expect(await run(ids.map(polledJob))).toHaveLength(MAX_SEEN + 1);
		expect(await run([polledJob(`b${MAX_SEEN}`)])).toHaveLength(0);
		expect(await run([polledJob('b0')])).toHaveLength(1);
	});
});
