// --state-dir and --cycle-interval through the built CLI: kill -9 in the middle of cycles leaves a folder that loads, with every cycle whole; cycles run on the timer.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STATE_FILE } from '../src/state/state-folder.mts';
import { CLI, runCli, type CliProcess } from './cli-process.mts';
import { DEMO_TOKEN } from './harness.mts';

const DATA = ['--port', '0', '--sources', '40', '--jobs', '2000', '--signals', '2000', '--rate-limit', '0'];
const started: CliProcess[] = [];
const dirs: string[] = [];

beforeAll(() => {
	if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
});
afterEach(() => {
	for (const cli of started.splice(0)) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
});
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function start(args: string[]): CliProcess {
	const cli = runCli(args);
	started.push(cli);
	return cli;
}

const serial = (id: string) => Number(id.replace(/^\D+_/, ''));

describe('--state-dir through the CLI', () => {
	it('kill -9 during cycles, three times: each start loads the folder, and every saved cycle is whole', { timeout: 180_000 }, async () => {
		const dir = mkdtempSync(join(tmpdir(), 'job-signals-kill-'));
		dirs.push(dir);
		for (let round = 0; round < 3; round++) {
			const cli = start([...DATA, '--state-dir', dir, '--cycle-interval', '0.01']);
			const [, appUrl] = await cli.waitFor(/App URL: +(\S+)\n/);
			await cli.waitFor(/State folder: .*\n/);
			// Large cycles besides the timer's, so the kill is likely to land inside one or inside its commit.
			const big = JSON.stringify({ created: 1000, updated: 300, deleted: 300, signals: 500 });
			const requests = Array.from({ length: 6 }, () => fetch(`${appUrl}/__mock/process`, { method: 'POST', body: big }).catch(() => undefined));
			await new Promise((resolve) => setTimeout(resolve, 300 + round * 200));
			cli.child.kill('SIGKILL');
			await cli.exited;
			await Promise.all(requests);
		}
		// The folder as the last kill left it (the mock holds it locked while it runs).
		const db = new DatabaseSync(join(dir, STATE_FILE));
		let rows: { kind: string; id: string; value: string | null }[];
		try {
			expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
			rows = db.prepare('SELECT kind, id, value FROM records').all() as typeof rows;
		} finally {
			db.close();
		}
		const position = JSON.parse(rows.find((r) => r.kind === 'processor')!.value!) as { jobSerial: number; signalSerial: number };
		// The position is saved in the cycle's own transaction: no saved job or signal is newer than it.
		expect(Math.max(...rows.filter((r) => r.kind === 'job').map((r) => serial(r.id)))).toBeLessThanOrEqual(position.jobSerial);
		expect(Math.max(...rows.filter((r) => r.kind === 'signal').map((r) => serial(r.id)))).toBeLessThanOrEqual(position.signalSerial);

		const last = start([...DATA, '--state-dir', dir]);
		const [, records] = await last.waitFor(/State folder: .* \(restored (\d+) changed records/);
		const [, apiUrl] = await last.waitFor(/API base URL: (\S+)\n/);
		expect(Number(records)).toBe(rows.length);
		// What the folder holds is what the restarted mock serves.
		const jobs = rows.filter((r) => r.kind === 'job');
		for (const row of [...jobs.slice(0, 10), ...jobs.slice(-10)]) {
			const answer = await fetch(`${apiUrl}/jobs/${row.id}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
			expect(answer.status).toBe(row.value === null ? 404 : 200);
			if (row.value !== null) expect(await answer.json()).toEqual(JSON.parse(row.value));
		}
		last.child.kill('SIGTERM');
		expect(await last.exited).toBe(0);
	});

	it('--cycle-interval runs cycles on a timer and says so at start', { timeout: 60_000 }, async () => {
		const cli = start([...DATA, '--cycle-interval', '0.2']);
		const [, apiUrl] = await cli.waitFor(/API base URL: (\S+)\n/);
		await cli.waitFor(/Cycles: +every 0\.2 s\n/);
		const count = async () => {
			const answer = await fetch(`${apiUrl}/jobs`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
			return ((await answer.json()) as { metrics: { count_jobs: number } }).metrics.count_jobs;
		};
		const first = await count();
		// Each cycle adds 5 jobs and deletes 2; wait for two cycles at most 30 s (the machine may be busy).
		const deadline = Date.now() + 30_000;
		let now = first;
		while (now < first + 6 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 200));
			now = await count();
		}
		expect(now).toBeGreaterThanOrEqual(first + 6);
		cli.child.kill('SIGTERM');
		expect(await cli.exited).toBe(0);
	});

	it('exits 2 on a bad --cycle-interval or an empty --state-dir', async () => {
		for (const [args, message] of [
			[['--cycle-interval', 'soon'], /--cycle-interval must be a number of seconds ≥ 0/],
			[['--cycle-interval', '-1'], /--cycle-interval must be a number of seconds ≥ 0/],
			[['--state-dir', ''], /--state-dir needs a value/],
		] as const) {
			const cli = start([...args]);
			expect(await cli.exited).toBe(2);
			expect(cli.output().stderr).toMatch(message);
		}
	});
});
