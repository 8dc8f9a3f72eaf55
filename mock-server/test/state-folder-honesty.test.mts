// Honest persistence: a 0-byte, foreign or damaged state.sqlite is refused naming the file (and the record); a write that fails (SQLite's own "database or disk is full", through its page cap) is reported with SQLite's error, the request in flight is answered, the mock serves on and GET /__mock/state says it no longer saves; an upload is saved in one transaction.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MOCK_CONTROL_PATHS } from '../src/base/contract.mts';
import { createMockService } from '../src/service.mts';
import { STATE_FILE, StateFolder } from '../src/state/state-folder.mts';
import { runCli } from './cli-process.mts';
import { APP_URL, call, DEMO_TOKEN, SMALL, useRestarts } from './harness.mts';

const { newDir, serve, start, stop } = useRestarts(SMALL, 'job-signals-honest-');

afterEach(() => vi.restoreAllMocks());

const app = (path: string, method = 'GET', body?: unknown) => call(path, { base: APP_URL, token: null, method, body });
const upload = (emails: string[]) => app('/api/subscribers/upload', 'POST', { email_addresses: emails.join(','), access_token: DEMO_TOKEN });

/** A folder whose file was written by a mock (one webhook setting, one subscriber), closed again. */
async function savedFolder(): Promise<string> {
	const dir = newDir();
	const first = await start(dir);
	expect((await call('/api/webhooks', { base: APP_URL, method: 'POST', body: { url: 'https://hooks.example/x', event_types: ['signal'] } })).status).toBe(201);
	expect((await upload(['kept@example.org'])).status).toBe(200);
	await new Promise((resolve) => setImmediate(resolve));
	stop(first);
	return dir;
}

/** Changes the file as a crash or another program might have. */
function edit(dir: string, sql: string): void {
	const db = new DatabaseSync(join(dir, STATE_FILE));
	db.exec(sql);
	db.close();
}

describe('a state.sqlite the mock cannot trust is refused, naming the file', () => {
	it('0 bytes (SQLite would read it as a new, empty database: every saved change gone)', async () => {
		const dir = newDir();
		writeFileSync(join(dir, STATE_FILE), '');
		await expect(createMockService({ ...SMALL, stateDir: dir })).rejects.toThrow(new RegExp(`${join(dir, STATE_FILE)} is empty \\(0 bytes\\), not a state file`));
	});

	it('not SQLite at all', async () => {
		const dir = newDir();
		writeFileSync(join(dir, STATE_FILE), 'these are my notes, not a database '.repeat(200));
		await expect(createMockService({ ...SMALL, stateDir: dir })).rejects.toThrow(new RegExp(`${join(dir, STATE_FILE)}: file is not a database \\(it is not a state file`));
	});

	it("another program's SQLite database (left as it was)", async () => {
		const dir = newDir();
		edit(dir, "CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ann');");
		await expect(createMockService({ ...SMALL, stateDir: dir })).rejects.toThrow(new RegExp(`${join(dir, STATE_FILE)} is a SQLite database but not a mock's state file \\(tables: users\\)`));
		const db = new DatabaseSync(join(dir, STATE_FILE));
		expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'users' }]);
		db.close();
	});

	it('a record whose JSON is cut off: names the record', async () => {
		const dir = await savedFolder();
		edit(dir, `UPDATE records SET value = substr(value, 1, 20) WHERE kind = 'webhook'`);
		await expect(createMockService({ ...SMALL, stateDir: dir })).rejects.toThrow(/state\.sqlite: record webhook "wh_[0-9a-f-]+" is damaged \(.*JSON.*\): move the file away/);
	});

	it('a record of the wrong shape: names the record and the field, where it was a raw TypeError', async () => {
		const dir = await savedFolder();
		edit(dir, `INSERT INTO records (kind, id, value) VALUES ('job', 'job_0000001', '{"job_id": 5}')`);
		await expect(createMockService({ ...SMALL, stateDir: dir })).rejects.toThrow(/state\.sqlite: record job "job_0000001" cannot be restored: job_id: .*Move the file away/);
		edit(dir, `UPDATE records SET value = '{"account_id": "acc_demo"}' WHERE kind = 'job'`);
		await expect(createMockService({ ...SMALL, stateDir: dir })).rejects.toThrow(/record job "job_0000001" cannot be restored/);
	});

	it('a damaged delivery log entry: names its row', async () => {
		const dir = await savedFolder();
		edit(dir, `INSERT INTO deliveries (seq, entry) VALUES (7, '{"webhook_event_id": ')`);
		await expect(createMockService({ ...SMALL, stateDir: dir })).rejects.toThrow(/state\.sqlite: delivery log entry 7 is damaged/);
	});

	it('a refused folder is not left locked: the same folder opens once repaired', async () => {
		const dir = await savedFolder();
		edit(dir, `INSERT INTO deliveries (seq, entry) VALUES (7, 'x')`);
		await expect(createMockService({ ...SMALL, stateDir: dir })).rejects.toThrow(/delivery log entry 7/);
		edit(dir, 'DELETE FROM deliveries WHERE seq = 7');
		const service = await start(dir);
		expect(service.restored?.records).toBe(2);
	});

	it('the CLI exits 1 with the message', async () => {
		const dir = newDir();
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, STATE_FILE), '');
		const cli = runCli(['--port', '0', '--sources', '5', '--jobs', '50', '--signals', '50', '--state-dir', dir]);
		expect(await cli.exited).toBe(1);
		expect(cli.output().stderr).toContain(`${join(dir, STATE_FILE)} is empty (0 bytes)`);
	});
});

describe('a write that fails', () => {
	it("reports SQLite's own error (not \"cannot rollback\"), answers the request, serves on, and GET /__mock/state says it no longer saves", async () => {
		const dir = newDir();
		// SQLite's page cap gives the real SQLITE_FULL ("database or disk is full") path without filling a disk.
		const openFolder = StateFolder.open.bind(StateFolder);
		vi.spyOn(StateFolder, 'open').mockImplementation(async (...args) => {
			const folder = await openFolder(...args);
			const db = (folder as unknown as { db: DatabaseSync }).db;
			const { page_count } = db.prepare('PRAGMA page_count').get() as { page_count: number };
			db.exec(`PRAGMA max_page_count = ${page_count + 3}`);
			return folder;
		});
		const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		const service = await start(dir);
		const seeded = service.store.subscribersOf('acc_demo').length;
		expect((await app(MOCK_CONTROL_PATHS.state)).json).toEqual({ state_dir: dir, persisting: true, error: null });
		// Uploads of 100 addresses until the file is full: every one is answered.
		for (let i = 0; i < 20; i++) {
			const answer = await upload(Array.from({ length: 100 }, (_, j) => `user${i}-${j}-${'x'.repeat(150)}@example.org`));
			expect(answer.status).toBe(200);
			await new Promise((resolve) => setImmediate(resolve));
		}
		const state = (await app(MOCK_CONTROL_PATHS.state)).json as { persisting: boolean; error: string };
		expect(state.persisting).toBe(false);
		expect(state.error).toMatch(/^database or disk is full/);
		const said = errors.mock.calls.map((c) => String(c[0])).join('\n');
		expect(said).toContain(`saving to ${join(dir, STATE_FILE)} failed: database or disk is full`);
		expect(said).toMatch(/changes from now on are kept in memory only and NOT saved/);
		expect(said).not.toMatch(/cannot rollback/);
		// Said once, not on every later change; and the mock serves on from memory.
		expect(errors.mock.calls.filter((c) => /state folder/.test(String(c[0])))).toHaveLength(1);
		expect((await upload(['after@example.org'])).status).toBe(200);
		expect(((await app('/__mock/accounts/acc_demo/subscribers')).json as { data: unknown[] }).data.length).toBe(seeded + 20 * 100 + 1);
		expect((await app(MOCK_CONTROL_PATHS.process, 'POST')).status).toBe(200);
		expect(service.persistence().persisting).toBe(false);
	});

	it('without a state folder, GET /__mock/state says so', async () => {
		serve(await createMockService(SMALL));
		expect((await app(MOCK_CONTROL_PATHS.state)).json).toEqual({ state_dir: null, persisting: false, error: null });
	});
});

describe('subscriber upload', () => {
	it('saves the 100 addresses of one upload in one transaction (a kill -9 leaves all or none), and they come back', async () => {
		const dir = newDir();
		const first = await start(dir);
		const exec = vi.spyOn(DatabaseSync.prototype, 'exec');
		const emails = Array.from({ length: 100 }, (_, i) => `whole${i}@example.org`);
		expect((await upload(emails)).status).toBe(200);
		await new Promise((resolve) => setImmediate(resolve));
		expect(exec.mock.calls.filter(([sql]) => sql === 'COMMIT')).toHaveLength(1);
		exec.mockRestore();
		stop(first);
		await start(dir);
		const saved = ((await app('/__mock/accounts/acc_demo/subscribers')).json as { data: { email: string }[] }).data.map((s) => s.email);
		expect(saved.filter((email) => email.startsWith('whole')).sort()).toEqual([...emails].sort());
	});
});
