/**
 * FILE.partial, the walk so far: a first line naming the walk (the API base URL and the account the
 * clone is for; never the token), then one line per page fetched, `{"request", "body"}`, the answer
 * as the API sent it. A page is appended as one line in one write and synced before the next call,
 * so the file is always the walk's pages up to some point: a line a crash cut short (no newline at
 * its end) is dropped when the walk goes on, and that page is fetched again. Appending keeps the
 * cost of a page to its own size (rewriting the whole walk after each page would write it
 * quadratically: 100 MB a page for 100,000 jobs).
 */
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { PageRequest } from './walk.mts';

const FORMAT = 'job-signals-mock record checkpoint';
const VERSION = 1;

export interface WalkName {
	from: string;
	account: string;
}

export interface SavedPage {
	request: PageRequest;
	body: unknown;
}

/** A checkpoint of another walk, or not one at all: exit status 2 (the user chooses: delete it, or run its command). */
export class CheckpointError extends Error {}

export class Checkpoint {
	private constructor(private readonly handle: FileHandle) {}

	/** Opens the walk's checkpoint, created if there is none, with the pages it holds. */
	static async open(path: string, walk: WalkName): Promise<{ checkpoint: Checkpoint; pages: SavedPage[] }> {
		const existing = await open(path, 'r+').catch((error: NodeJS.ErrnoException) => {
			if (error.code === 'ENOENT') return undefined;
			throw error;
		});
		if (existing === undefined) {
			// Created whole under another name, then renamed: a walk's file always starts with its name.
			const temporary = `${path}.${process.pid}.tmp`;
			const created = await open(temporary, 'wx');
			await created.write(`${JSON.stringify({ format: FORMAT, version: VERSION, ...walk })}\n`);
			await created.sync();
			await created.close();
			await rename(temporary, path);
			return { checkpoint: new Checkpoint(await open(path, 'a')), pages: [] };
		}
		try {
			const { pages, goodBytes, size } = await readPages(existing, path, walk);
			if (goodBytes < size) await existing.truncate(goodBytes);
			return { checkpoint: new Checkpoint(await open(path, 'a')), pages };
		} finally {
			await existing.close();
		}
	}

	/** Appends one page and syncs it to disk. */
	async add(page: SavedPage): Promise<void> {
		await this.handle.write(`${JSON.stringify(page)}\n`);
		await this.handle.datasync();
	}

	async close(): Promise<void> {
		await this.handle.close();
	}

	static async remove(path: string): Promise<void> {
		await rm(path, { force: true });
	}
}

/** The file's complete lines as pages, and how many bytes they take. */
async function readPages(handle: FileHandle, path: string, walk: WalkName): Promise<{ pages: SavedPage[]; goodBytes: number; size: number }> {
	const { size } = await handle.stat();
	const pages: SavedPage[] = [];
	let goodBytes = 0;
	let header = true;
	let number = 0;
	const lines = createInterface({ input: handle.createReadStream({ start: 0, autoClose: false }), crlfDelay: Infinity });
	try {
		for await (const line of lines) {
			const bytes = Buffer.byteLength(line) + 1;
			number++;
			// The last line without its newline was cut short: the page it held is fetched again.
			if (goodBytes + bytes > size) break;
			let value: unknown;
			try {
				value = JSON.parse(line);
			} catch {
				throw new CheckpointError(`${path} is damaged (line ${number} is not JSON): delete it to start the walk over`);
			}
			if (header) {
				checkHeader(value, path, walk);
				header = false;
			} else {
				const page = value as Partial<SavedPage>;
				if (typeof page.request !== 'object' || page.request === null || !('body' in page)) {
					throw new CheckpointError(`${path} is damaged (line ${number} is not a page): delete it to start the walk over`);
				}
				pages.push(page as SavedPage);
			}
			goodBytes += bytes;
		}
	} finally {
		lines.close();
	}
	if (header) throw new CheckpointError(`${path} is not a record checkpoint: move it away or choose another --out`);
	return { pages, goodBytes, size };
}

function checkHeader(value: unknown, path: string, walk: WalkName): void {
	const header = value as { format?: unknown; version?: unknown; from?: unknown; account?: unknown };
	if (header?.format !== FORMAT) throw new CheckpointError(`${path} is not a record checkpoint: move it away or choose another --out`);
	if (header.version !== VERSION) throw new CheckpointError(`${path} was written by another version of record: delete it to start the walk over`);
	if (header.from !== walk.from || header.account !== walk.account) {
		throw new CheckpointError(
			`${path} is the walk of ${String(header.from)} for account ${String(header.account)}: run that command again to continue it, or delete the file to start over`,
		);
	}
}
