/**
 * The poll trigger in n8n's queue mode (Postgres + Redis, a main process and 2
 * `n8n worker` processes, no webhook process: nothing published has a webhook; n8n's
 * default scheduler), set up as in poll-e2e.mts: the main process polls, the workers run the executions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listExecutions } from '../../harness/n8n/deployment.mts';
import { EXACTLY_ONCE, exactlyOnceFigures, startPollRun, WORKFLOWS, type PollRun } from './poll-e2e.mts';

describe('the poll trigger in a real n8n, queue mode', () => {
	let run: PollRun;

	beforeAll(async () => {
		run = await startPollRun('queue');
	});

	afterAll(async () => {
		await run?.close();
	});

	it('every new item in exactly one execution, each execution run by a worker', async () => {
		await run.waitForPolls(1);
		await run.cycle();
		await run.waitForAll();
		await run.cycle();
		await run.cycle();
		await run.waitForAll();
		await run.waitForPolls(2);
		expect(await exactlyOnceFigures(run, 'poll e2e, queue mode')).toEqual(EXACTLY_ONCE);

		const outputs = run.deployment.outputs();
		const ranOn = (executionId: string) =>
			Object.keys(outputs).filter((label) => outputs[label].includes(`Worker started execution ${executionId} (`));
		const executions = (await Promise.all(WORKFLOWS.map((w) => listExecutions(run.deployment, w.id)))).flat();
		expect(executions.length).toBeGreaterThan(0);
		const where = executions.map((e) => ranOn(e.id));
		console.log(`[measured] poll e2e, queue mode: ${executions.length} executions, run by ${JSON.stringify(Object.fromEntries(Object.keys(outputs).map((label) => [label, where.filter((w) => w.includes(label)).length])))}`);
		expect(where.map((labels) => labels.length === 1 && labels[0].startsWith('worker'))).toEqual(executions.map(() => true));
	});
});
