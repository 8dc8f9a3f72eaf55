/**
 * The poll trigger in a real `n8n start` (regular mode, SQLite) on n8n's
 * durable scheduler with durable poll cursors (DURABLE_POLL_CURSORS_ENV), set
 * up as in poll-e2e.mts. There n8n hands each poll a staged copy of the node's
 * position and commits it in one transaction with the execution that carries
 * the poll's items (PollCursorService.commitWithExecution), or alone after a
 * poll that emitted nothing. Cases: `kill -9` of n8n after a hand-off, at the
 * moment a poll that finds new items is answered, and at n8n's first database
 * write after that answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DURABLE_POLL_CURSORS_ENV } from '../../harness/n8n/config.mts';
import { crashAfterHandOff, crashAsAPollIsAnswered, crashAtTheHandOffWrite, EXACTLY_ONCE, exactlyOnceFigures, observe, positionInStaticData, startPollRun, WORKFLOWS, type PollRun } from './poll-e2e.mts';

describe('the poll trigger in a real n8n with durable poll cursors (regular mode)', () => {
	let run: PollRun;

	beforeAll(async () => {
		run = await startPollRun('regular', DURABLE_POLL_CURSORS_ENV);
	});

	afterAll(async () => {
		await run?.close();
	});

	it('n8n keeps durable poll cursors on; activation records the position and emits nothing old; idle polls start no execution', async () => {
		await run.waitForPolls(2);
		expect(run.deployment.logs()).not.toContain('durable poll cursors stay disabled');
		for (const workflow of WORKFLOWS) expect(await observe(run.deployment, workflow)).toEqual({ executions: 0, emitted: [], errors: [] });
	});

	it('every new item in exactly one execution across cycles and kill -9 of n8n after a hand-off, two cycles while it is down', async () => {
		await run.cycle();
		await run.waitForAll();
		await crashAfterHandOff(run);
		expect(await exactlyOnceFigures(run, 'poll e2e, durable poll cursors, kill -9 after the hand-off')).toEqual(EXACTLY_ONCE);
	});

	it('kill -9 of n8n the moment a poll that finds new jobs is answered: every item in exactly one execution', async () => {
		await crashAsAPollIsAnswered(run);
		expect(await exactlyOnceFigures(run, 'poll e2e, durable poll cursors, kill -9 as a poll is answered')).toEqual(EXACTLY_ONCE);
	});

	it('kill -9 of n8n at its first database write after a poll that finds new jobs was answered: every item in exactly one execution', async () => {
		await crashAtTheHandOffWrite(run);
		await run.waitForAll();
		await run.waitForPolls(2);
		expect(await exactlyOnceFigures(run, 'poll e2e, durable poll cursors, kill -9 at the hand-off write')).toEqual(EXACTLY_ONCE);
	});

	it('the position is not in the workflow\'s static data (n8n keeps it as the poll cursor)', async () => {
		for (const workflow of WORKFLOWS) expect(await positionInStaticData(run, workflow)).toBeUndefined();
	});
});
