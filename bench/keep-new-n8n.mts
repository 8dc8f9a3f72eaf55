/**
 * What Keep New's row of seen ids costs each execution in a real n8n 2.40.7 (`npm run bench:keep-new`, regular mode, SQLite):
 * n8n reads the node's whole row of seen ids, looks each id up in it one by one and writes it back on every execution. Side by
 * side, alternating: executions of one new job into a row of a few ids and into a full one (MAX_SEEN ids); then
 * batches of MAX_SEEN and 2.5 × MAX_SEEN new ids into a full row. Figures: n8n's own measure of Keep New's run
 * (`executionTime`) and of the execution, from its REST API; the row's size in n8n's database. It reports, and fails
 * only when an execution does not pass what it should.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDeployment } from '../harness/n8n/deployment.mts';
import { keepNewWorkflow, lanePaths, latestExecution, sendToLane, type Lane, type LaneRun } from '../harness/n8n/keep-new-lanes.mts';
import { MAX_SEEN } from '../nodes/JobSignals/helpers/newest-ids';
import { median, percentile } from './percentiles.mts';

const WORKFLOW = 'keepNewBench';
const ROUNDS = 40;
const WARM_UP = 5;
const BATCH_ROUNDS = 3;
const SMALL = 'small';
const FULL = 'full';
const LANES: Lane[] = [{ name: SMALL }, { name: FULL }];
const CREATED = 1_760_000_000;

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

describe("Keep New's row of seen ids: its cost per execution, in a real n8n", () => {
	it(`${ROUNDS} single-id executions into a row of a few ids and into a full one, alternating; batches into a full row`, async () => {
		const deployment = await startDeployment('regular', ['--rate-limit', '0'], lanePaths(LANES), async (n8n) => {
			await n8n.importWorkflows([keepNewWorkflow(WORKFLOW, LANES)]);
			await n8n.publish(WORKFLOW);
		});
		try {
			let last = await latestExecution(deployment, WORKFLOW);
			let next = 0;
			/** `count` new jobs, newest first as a trigger emits them. */
			const send = async (lane: string, count: number): Promise<LaneRun> => {
				const items = Array.from({ length: count }, (_, i) => ({ job_id: `b${next + count - 1 - i}`, created_at: CREATED + next + count - 1 - i }));
				next += count;
				const run = await sendToLane(deployment, WORKFLOW, lane, items, last);
				last = run.executionId;
				expect(run.passed).toHaveLength(count);
				return run;
			};
			console.log(`[bench] load average before: ${load()}`);
			await send(FULL, MAX_SEEN);
			const times: Record<string, LaneRun[]> = { [SMALL]: [], [FULL]: [] };
			for (let round = 0; round < WARM_UP + ROUNDS; round++) {
				for (const lane of round % 2 === 0 ? [SMALL, FULL] : [FULL, SMALL]) {
					const run = await send(lane, 1);
					if (round >= WARM_UP) times[lane].push(run);
				}
			}
			for (const lane of [SMALL, FULL]) {
				const keepNew = times[lane].map((run) => run.keepNewMs);
				const execution = times[lane].map((run) => run.executionMs);
				console.log(
					`[bench] one new id into a ${lane === SMALL ? `row of at most ${WARM_UP + ROUNDS} ids` : `full row (${MAX_SEEN} ids)`}: Keep New p50 ${median(keepNew)} ms, p90 ${percentile([...keepNew].sort((a, b) => a - b), 90)} ms; execution p50 ${median(execution)} ms, p90 ${percentile([...execution].sort((a, b) => a - b), 90)} ms (${ROUNDS} executions)`,
				);
			}
			for (const size of [MAX_SEEN, 2.5 * MAX_SEEN]) {
				const runs: LaneRun[] = [];
				for (let round = 0; round < BATCH_ROUNDS; round++) runs.push(await send(FULL, size));
				console.log(`[bench] ${size} new ids into a full row: Keep New ${runs.map((run) => run.keepNewMs).join(', ')} ms; execution ${runs.map((run) => run.executionMs).join(', ')} ms`);
			}
			console.log(`[bench] the row in n8n's database: ${rowBytes(deployment.n8n.userFolder)}; load average after: ${load()}`);
		} finally {
			await deployment.close();
		}
	});
});

/** Each lane's row of seen ids, its value's length in bytes (sqlite3 from Debian's packages, when installed). */
function rowBytes(userFolder: string): string {
	try {
		return execFileSync('sqlite3', [join(userFolder, '.n8n', 'database.sqlite'), 'SELECT context, length(value) FROM processed_data'], { encoding: 'utf8' }).trim().replaceAll('\n', '; ');
	} catch (error) {
		return `not read (${(error as Error).message.split('\n')[0]})`;
	}
}
