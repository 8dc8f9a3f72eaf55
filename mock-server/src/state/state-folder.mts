/**
 * The state folder (`--state-dir`): one SQLite database, `state.sqlite`, through
 * Node's built-in node:sqlite (no native build, no dependency; README says why).
 *
 * It holds what changed since the seed, not the seed itself: each changed
 * record's latest value (`records`: a source, job, signal, subscriber, webhook
 * setting, the fault rules, the cycle runner's position), and the delivery log
 * (`deliveries`, bounded like the in-memory log). Writes made in one
 * synchronous step (a whole cycle, say) are committed together in
 * one transaction at the end of that step, so a crash (kill -9) leaves either
 * all of a cycle or none of it. WAL mode: a committed transaction survives a
 * killed process. A cycle gives the event loop up between slices
 * (cycles/cycle.mts), so its writes are held (hold) and committed in one
 * transaction when it ends (release), that transaction's statements run a share
 * per turn. The data set's flags are stored too: changes only make sense
 * over the seed they were made on.
 *
 * What it refuses on open, naming the file (StateFolderError): a 0-byte file
 * (SQLite would take it for a new, empty database: every saved change gone
 * without a word), a file that is not SQLite, a SQLite database that is not a
 * state folder's, another format version or data set, and a damaged record
 * (naming the record). A write that fails later (disk full, read-only folder)
 * is reported with SQLite's own error, once, on stderr; the mock keeps serving
 * from memory and saves nothing more (`failure()`, GET /__mock/state).
 */
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync as Database, StatementSync } from 'node:sqlite';
import type { Work } from '../base/work.mts';
import { STEPS_PER_TURN } from '../base/work.mts';

export const STATE_FILE = 'state.sqlite';
/** A saved write (a prepared INSERT of a few kB of JSON) costs ~5–20 µs here: 200 a turn stay under 4 ms. */
const SAVE_STEPS = STEPS_PER_TURN / 200;
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

/** A state folder the mock will not start on; the message names the file (and the record). */
export class StateFolderError extends Error {}

const TABLES = ['deliveries', 'meta', 'records'];

export class StateFolder {
	private pending: Array<() => void> = [];
	/** Writes wait in `pending` while a cycle holds them, and while a held cycle's transaction is being committed. */
	private held = false;
	private committing = false;
	private writesSinceTrim = 0;
	private closed = false;
	private failed: string | undefined;
	/** Prepared once: a cycle over a full delivery queue logs thousands of not_sent entries in one step. */
	private readonly statements = new Map<string, StatementSync>();

	private constructor(
		private readonly db: Database,
		private readonly path: string,
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
		const path = join(dir, STATE_FILE);
		let db: Database;
		try {
			mkdirSync(dir, { recursive: true });
			if (sizeOf(path) === 0) {
				throw new StateFolderError(`${path} is empty (0 bytes), not a state file: the saved changes are gone. Move it away (or delete it) to start from the seed`);
			}
			db = new DatabaseSync(path);
		} catch (error) {
			if (error instanceof StateFolderError) throw error;
			throw new StateFolderError(`state folder ${dir}: cannot open ${path}: ${(error as Error).message}`);
		}
		try {
			db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA locking_mode = EXCLUSIVE; PRAGMA busy_timeout = 0;');
			const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
			if (tables.length > 0 && tables.join() !== TABLES.join()) {
				throw new StateFolderError(`${path} is a SQLite database but not a mock's state file (tables: ${tables.join(', ')}): use a new folder`);
			}
			db.exec(`BEGIN IMMEDIATE;
				CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
				CREATE TABLE IF NOT EXISTS records (kind TEXT NOT NULL, id TEXT NOT NULL, value TEXT, PRIMARY KEY (kind, id));
				CREATE TABLE IF NOT EXISTS deliveries (seq INTEGER PRIMARY KEY, entry TEXT NOT NULL);
				COMMIT;`);
		} catch (error) {
			db.close();
			if (error instanceof StateFolderError) throw error;
			const message = (error as Error).message;
			const why = /locked|busy/i.test(message) ? ' (another mock uses this state folder)'
				: /not a database/i.test(message) ? ' (it is not a state file: use a new folder)'
				: '';
			throw new StateFolderError(`${path}: ${message}${why}`);
		}
		const folder = new StateFolder(db, path, maxDeliveries);
		try {
			folder.checkDataSet(path, dataSet);
		} catch (error) {
			// A refused folder must not stay locked by this process (a retry with the right flags would find it busy).
			db.close();
			throw error;
		}
		return folder;
	}

	/** Every saved change. Throws StateFolderError naming a record whose JSON is damaged. */
	read(): SavedState {
		const rows = this.db.prepare('SELECT kind, id, value FROM records ORDER BY rowid').all() as { kind: string; id: string; value: string | null }[];
		const records = rows.map((row) => ({ kind: row.kind, id: row.id, value: row.value === null ? null : this.parse(row.value, `record ${row.kind} "${row.id}"`) }));
		const deliveries = (this.db.prepare('SELECT seq, entry FROM deliveries ORDER BY seq DESC LIMIT ?').all(this.maxDeliveries) as { seq: number; entry: string }[])
			.map((row) => this.parse(row.entry, `delivery log entry ${row.seq}`))
			.reverse();
		return { records, deliveries };
	}

	/** The file's path, for messages about its records. */
	get file(): string {
		return this.path;
	}

	/** Why the folder stopped saving (SQLite's error), or undefined while it saves. */
	failure(): string | undefined {
		return this.failed;
	}

	private parse(json: string, what: string): unknown {
		try {
			return JSON.parse(json);
		} catch (error) {
			throw new StateFolderError(`${this.path}: ${what} is damaged (${(error as Error).message}): move the file away to start from the seed, or delete that row`);
		}
	}

	/**
	 * Saves a record's latest value (null: deleted). REPLACE gives the row a new
	 * rowid, so reading in rowid order replays records in the order of their last change.
	 */
	put(kind: string, id: string, value: unknown): void {
		const json = value === null ? null : JSON.stringify(value);
		this.queue(() => this.statement('INSERT OR REPLACE INTO records (kind, id, value) VALUES (?, ?, ?)').run(kind, id, json));
	}

	/** Forgets a record (one created after the seed and gone since). */
	remove(kind: string, id: string): void {
		this.queue(() => this.statement('DELETE FROM records WHERE kind = ? AND id = ?').run(kind, id));
	}

	appendDelivery(entry: unknown): void {
		const json = JSON.stringify(entry);
		this.queue(() => {
			this.statement('INSERT INTO deliveries (entry) VALUES (?)').run(json);
			if (++this.writesSinceTrim < 1000) return;
			this.writesSinceTrim = 0;
			this.db.prepare('DELETE FROM deliveries WHERE seq <= (SELECT MAX(seq) FROM deliveries) - ?').run(this.maxDeliveries);
		});
	}

	/** Back to the seed: every change and the delivery log go (the data set's flags stay). */
	clear(): void {
		this.pending = [];
		this.saving(() => this.transaction(() => this.db.exec('DELETE FROM records; DELETE FROM deliveries;')));
	}

	/** From now on writes wait for release(): a cycle's, made over many turns, are saved together. */
	hold(): void {
		this.held = true;
	}

	/**
	 * Saves what was held in one transaction, a share of the statements per turn (`work`). The
	 * transaction stays open across turns: no other connection may use the file (exclusive locking),
	 * and this process's writes made meanwhile wait for the next commit. A close() meanwhile ends it
	 * unsaved, like a killed process.
	 */
	async release(work: Work): Promise<void> {
		this.held = false;
		const writes = this.pending;
		this.pending = [];
		if (writes.length === 0 || this.closed || this.failed !== undefined) return;
		this.committing = true;
		try {
			this.db.exec('BEGIN IMMEDIATE');
			for (const write of writes) {
				write();
				await work.spend(SAVE_STEPS);
				if (this.closed) return;
			}
			this.db.exec('COMMIT');
		} catch (error) {
			if (this.closed) return;
			this.rollBack();
			this.fail(error);
		} finally {
			this.committing = false;
			if (this.pending.length > 0 && !this.closed) queueMicrotask(() => this.flush());
		}
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
			throw new StateFolderError(`${path} was written by another version of the mock (state format ${saved.schema}, this one reads ${SCHEMA_VERSION}): use a new folder`);
		}
		if (saved.dataSet !== undefined && saved.dataSet !== wanted) {
			throw new StateFolderError(`${path} holds changes to another data set (${saved.dataSet}; these flags give ${wanted}): start with the same flags, or use a new folder`);
		}
		this.transaction(() => {
			const put = this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
			put.run('schema', SCHEMA_VERSION);
			put.run('dataSet', wanted);
		});
	}

	private statement(sql: string): StatementSync {
		let statement = this.statements.get(sql);
		if (statement === undefined) {
			statement = this.db.prepare(sql);
			this.statements.set(sql, statement);
		}
		return statement;
	}

	/** The first write of a synchronous step schedules the commit of all of them for the step's end (unless held). */
	private queue(write: () => void): void {
		if (this.closed || this.failed !== undefined) return;
		if (this.pending.length === 0 && !this.held && !this.committing) queueMicrotask(() => this.flush());
		this.pending.push(write);
	}

	private flush(): void {
		if (this.pending.length === 0 || this.held || this.committing) return;
		const writes = this.pending;
		this.pending = [];
		this.saving(() =>
			this.transaction(() => {
				for (const write of writes) write();
			}),
		);
	}

	/**
	 * Runs a write; when it fails, says so once with SQLite's error and saves nothing more. The
	 * request whose change it was is still answered: the failure is the folder's, not the request's.
	 */
	private saving(write: () => void): void {
		if (this.failed !== undefined) return;
		try {
			write();
		} catch (error) {
			this.fail(error);
		}
	}

	private fail(error: unknown): void {
		this.failed = `${(error as Error).message}${(error as { errcode?: number }).errcode === undefined ? '' : ` (SQLite error ${(error as { errcode?: number }).errcode})`}`;
		this.pending = [];
		console.error(`job-signals-mock: state folder: saving to ${this.path} failed: ${this.failed}. The mock keeps serving, but changes from now on are kept in memory only and NOT saved (GET /__mock/state says so); restart it once the folder is writable again`);
	}

	private transaction(body: () => void): void {
		this.db.exec('BEGIN IMMEDIATE');
		try {
			body();
			this.db.exec('COMMIT');
		} catch (error) {
			this.rollBack();
			throw error;
		}
	}

	private rollBack(): void {
		try {
			this.db.exec('ROLLBACK');
		} catch {
			// SQLite rolled back by itself (a full disk does): its "no transaction is active" must not replace the real error.
		}
	}
}

/** The file's size, or undefined when there is no file yet. */
function sizeOf(path: string): number | undefined {
	try {
		return statSync(path).size;
	} catch {
		return undefined;
	}
}
