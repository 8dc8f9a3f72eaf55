// --max-created-records with --state-dir: the folder keeps rows for the created records there are, and a restart keeps the cap.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { STATE_FILE } from '../src/state/state-folder.mts';
import { SMALL, useRestarts } from './harness.mts';

const SEED = { jobs: SMALL.jobs as number, signals: SMALL.signals as number };
const created = (ids: Iterable<string>, prefix: string, seed: number) => [...ids].filter((id) => id.startsWith(prefix) && Number(id.slice(prefix.length)) > seed);

describe('--max-created-records with --state-dir', () => {
	const { newDir, start, stop } = useRestarts({ ...SMALL, maxCreatedRecords: 15 }, 'job-signals-cap-test-');
	const rows = (dir: string, kind: string, prefix: string, seed: number) => {
		const db = new DatabaseSync(join(dir, STATE_FILE), { readOnly: true });
		try {
			return created((db.prepare('SELECT id FROM records WHERE kind = ?').all(kind) as { id: string }[]).map((r) => r.id), prefix, seed).length;
		} finally {
			db.close();
		}
	};

	it('keeps a row for the created records there are, not for every one ever created, and a restart keeps the cap', async () => {
		const dir = newDir();
		const first = await start(dir);
		for (let i = 0; i < 40; i++) await first.processCycle();
		stop(first);
		expect(rows(dir, 'job', 'job_', SEED.jobs)).toBeLessThanOrEqual(15);
		expect(rows(dir, 'signal', 'sig_', SEED.signals)).toBe(15);
		const second = await start(dir);
		for (let i = 0; i < 20; i++) await second.processCycle();
		expect(created(second.store.jobs.keys(), 'job_', SEED.jobs).length).toBeLessThanOrEqual(15);
		expect(created(second.store.signals.map((s) => s.signal_id), 'sig_', SEED.signals)).toHaveLength(15);
		stop(second);
		expect(rows(dir, 'job', 'job_', SEED.jobs)).toBeLessThanOrEqual(15);
		expect(rows(dir, 'signal', 'sig_', SEED.signals)).toBe(15);
	});
});
