/**
 * Why polls failed "no answer — 4 attempts" when the poll e2e files polled every 2–3 s on n8n's default expression
 * engine (POLL_ENV in test/e2e/poll-e2e.mts): a poll of a 110-job walk is held at the test's proxy before its
 * first page until n8n has started another poll of the same workflow (the node skips it and logs so), then let go.
 * Per expression engine (`BENCH_POLL_ENGINES`, default `vm,legacy`), one n8n each, in turn:
 * `npx vitest run --config vitest.bench-n8n.config.mts test/e2e/poll-overlap.measure.mts` (n8n version: JOB_SIGNALS_N8N_VERSION).
 * A measurement beside the e2e files (their set-up), not one of them: neither `npm test` nor `npm run test:e2e` runs it.
 * Printed per engine: the held poll's requests as the mock saw them, and its execution's error if it failed.
 */
import { describe, expect, it } from 'vitest';
import { N8N_VERSION } from '../../harness/n8n/config.mts';
import { JOBS, observe, startPollRun, waitFor } from './poll-e2e.mts';

const ENGINES = (process.env.BENCH_POLL_ENGINES ?? 'vm,legacy').split(',');
const SKIPPED = 'the previous poll of this trigger is still running; this poll time is skipped';

describe('a poll time during a running poll, per expression engine', () => {
	for (const engine of ENGINES) {
		it(`n8n ${N8N_VERSION}, N8N_EXPRESSION_ENGINE=${engine}`, async () => {
			const run = await startPollRun('regular', { N8N_EXPRESSION_ENGINE: engine });
			try {
				const executionsBefore = (await observe(run.deployment, JOBS)).executions;
				const release = run.proxy.hold(JOBS.path);
				await waitFor('no job-search request in flight', async () => run.proxy.log.every((r) => r.path !== JOBS.path || r.ended !== undefined), undefined, 250);
				const from = run.proxy.log.length;
				// More than a page (100): the walk needs a second request after the first answer.
				await run.cycle({ created: 110 });
				await waitFor('a job-search request held', async () => run.proxy.waiting(JOBS.path) > 0, undefined, 100);
				const skips = () => Object.values(run.deployment.outputs()).join('\n').split(SKIPPED).length - 1;
				const skipsBefore = skips();
				await waitFor('a poll time skipped while the held poll runs', async () => skips() > skipsBefore, undefined, 250);
				release();
				// The held poll's execution: the first after those before (a failed one, or the one with the jobs).
				const first = await waitFor('an execution of the held poll', async () => {
					const observed = await observe(run.deployment, JOBS);
					return observed.executions > executionsBefore && observed;
				});
				await run.waitForAll();
				const walk = run.proxy.log.slice(from).filter((r) => r.path === JOBS.path).map((r) => `${r.query.get('offset')}:${r.status}`);
				const after = await observe(run.deployment, JOBS);
				console.log(
					`[measured] poll overlap, n8n ${N8N_VERSION}, engine ${engine}: first execution after the held poll ${first.errors.length > 0 ? `failed: ${first.errors.join(' | ')}` : 'succeeded'}; job-search requests from the cycle on ${JSON.stringify(walk)}; every created job emitted once: ${after.emitted.length === new Set(after.emitted).size}`,
				);
				// n8n 2 (default engine) releases the held poll's isolate when the skipped poll ends; n8n 1.123 does not.
				const releasesIsolate = engine === 'vm' && !N8N_VERSION.startsWith('1.');
				expect(first.errors.map((error) => /Could not reach the Job Signals service at .*: no answer \(No bridge acquired for this context\. Call acquire\(\) first\.\) — 4 attempts/.test(error))).toEqual(releasesIsolate ? [true] : []);
			} finally {
				await run.close();
			}
		});
	}
});
