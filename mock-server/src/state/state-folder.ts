/**
 * The state folder (`--state-dir`): one SQLite database, `state.sqlite`, through
 * Node's built-in node:sqlite (no native build, no dependency; README says why).
 *
 * It holds what changed since the seed, not the seed itself: each changed
 * record's latest value (`records`: a source, job, signal, subscriber, webhook
 * setting, the fault rules, the processor's position), and the delivery log
 * (`deliveries`, bounded like the in-memory log). Writes made in one
 * synchronous step (a whole processing cycle, say) are committed together in
 * one transaction at the end of that step, so a crash (kill -9) leaves either
 * all of a cycle or none of it. WAL mode: a committed transaction survives a
 * killed process. The data set's flags are stored too: changes only make sense
 * over the seed they were made on.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync as Database } from 'node:sqlite';

export const STATE_FILE = 'state.sqlite';
const SCHEMA_VERSION = '1';

export interface SavedRecord {
	kind: string;
	id: string;
	/** Parsed JSON; null for a deleted record. */
	value: unknown;
}

export interface SavedState {
	records: SavedRecord[];
	deliveries: unknown[];
}

export class StateFolder {
	private pending: Array<() => void> = [];
	private writesSinceTrim = 0;
	private closed = false;

	private constructor(
		private readonly db: Database,
		private readonly maxDeliveries: number,
	) {}

	/**
	 * Opens (or creates) the folder's database. `dataSet` describes the seed the
	 * changes apply to; a folder written over another seed is refused. The
	 * database stays locked while open, so a second mock cannot share the folder.
	 */
	static async open(dir: string, dataSet: Record<string, unknown>, maxDeliveries: number): Promise<StateFolder> {
		// Loaded only with --state-dir: node:sqlite warns that it is experimental when first loaded.
		const { DatabaseSync } = await import('node:sqlite');
		mkdirSync(dir, { recursive: true });
		const path = join(dir, STATE_FILE);
		const db = new DatabaseSync(path);
		try {
			db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA locking_mode = EXCLUSIVE; PRAGMA busy_timeout = 0;');
			db.exec(`BEGIN IMMEDIATE;
				CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
				CREATE TABLE IF NOT EXISTS records (kind TEXT NOT NULL, id TEXT NOT NULL, value TEXT, PRIMARY KEY (kind, id));
				CREATE TABLE IF NOT EXISTS deliveries (seq INTEGER PRIMARY KEY, entry TEXT NOT NULL);
				COMMIT;`);
		} catch (error) {
			db.close();
			throw new Error(`${path}: ${(error as Error).message}${/locked|busy/i.test((error as Error).message) ? ' (another mock uses this state folder)' : ''}`);
		}
		const folder = new StateFolder(db, maxDeliveries);
		try {
			folder.checkDataSet(path, dataSet);
		} catch (error) {
			// A refused folder must not stay locked by this process (a retry with the right flags would find it busy).
			db.close();
			throw error;
		}
		return folder;
	}

	read(): SavedState {
		const records = (this.db.prepare('SELECT kind, id, value FROM records ORDER BY rowid').all() as { kind: string; id: string; value: string | null }[]).map(
			(row) => ({ kind: row.kind, id: row.id, value: row.value === null ? null : JSON.parse(row.value) }),
		);
		const deliveries = (this.db.prepare('SELECT entry FROM deliveries ORDER BY seq DESC LIMIT ?').all(this.maxDeliveries) as { entry: string }[])
			.map((row) => JSON.parse(row.entry))
			.reverse();
		return { records, deliveries };
	}

	/**
	 * Saves a record's latest value (null: deleted). REPLACE gives the row a new
	 * rowid, so reading in rowid order replays records in the order of their last change.
	 */
	put(kind: string, id: string, value: unknown): void {
		const json = value === null ? null : JSON.stringify(value);
		this.queue(() => this.db.prepare('INSERT OR REPLACE INTO records (kind, id, value) VALUES (?, ?, ?)').run(kind, id, json));
	}

	appendDelivery(entry: unknown): void {
		const json = JSON.stringify(entry);
		this.queue(() => {
			this.db.prepare('INSERT INTO deliveries (entry) VALUES (?)').run(json);
			if (++this.writesSinceTrim < 1000) return;
			this.writesSinceTrim = 0;
			this.db.prepare('DELETE FROM deliveries WHERE seq <= (SELECT MAX(seq) FROM deliveries) - ?').run(this.maxDeliveries);
		});
	}

	/** Back to the seed: every change and the delivery log go (the data set's flags stay). */
	clear(): void {
		this.pending = [];
		this.transaction(() => this.db.exec('DELETE FROM records; DELETE FROM deliveries;'));
	}

	/** Commits what is pending; a second call does nothing. */
	close(): void {
		if (this.closed) return;
		this.flush();
		this.db.close();
		this.closed = true;
	}

	private checkDataSet(path: string, dataSet: Record<string, unknown>): void {
		const wanted = JSON.stringify(dataSet);
		const rows = this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
		const saved = Object.fromEntries(rows.map((r) => [r.key, r.value]));
		if (saved.schema !== undefined && saved.schema !== SCHEMA_VERSION) {
			throw new Error(`${path} was written by another version of the mock (state format ${saved.schema}, this one reads ${SCHEMA_VERSION}): use a new folder`);
		}
		if (saved.dataSet !== undefined && saved.dataSet !== wanted) {
			throw new Error(`${path} holds changes to another data set (${saved.dataSet}; these flags give ${wanted}): start with the same flags, or use a new folder`);
		}
		this.transaction(() => {
			const put = this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
			put.run('schema', SCHEMA_VERSION);
			put.run('dataSet', wanted);
		});
	}

	/** The first write of a synchronous step schedules the commit of all of them for the step's end. */
	private queue(write: () => void): void {
		if (this.closed) return;
		if (this.pending.length === 0) queueMicrotask(() => this.flush());
		this.pending.push(write);
	}

	private flush(): void {
		if (this.pending.length === 0) return;
		const writes = this.pending;
		this.pending = [];
		this.transaction(() => {
			for (const write of writes) write();
		});
	}

	private transaction(body: () => void): void {
		this.db.exec('BEGIN IMMEDIATE');
		try {
			body();
			this.db.exec('COMMIT');
		} catch (error) {
			this.db.exec('ROLLBACK');
			throw error;
		}
	}
}
