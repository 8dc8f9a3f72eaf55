/**
 * FILE.partial, the walk so far: a first line naming the walk (the API base URL and the account the
 * clone is for; never the token), then one line per page fetched, `{"request", "body"}`, the answer
 * as the API sent it. A page is appended as one line in one write and synced before the next call,
 * so the file is always the walk's pages up to some point: a line a crash cut short (no newline at
 * its end) is dropped when the walk goes on, and that page is fetched again. Appending keeps the
 * cost of a page to its own size (rewriting the whole walk after each page would write it
 * quadratically: 100 MB a page for 100,000 jobs). It is read back a line at a time, never whole.
 */
import { createReadStream } from 'node:fs';
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

/** What to do with a checkpoint that holds pages: refuse (neither flag), continue it (`--resume`), or delete it (`--restart`). */
export type CheckpointMode = 'refuse' | 'resume' | 'restart';

/** A checkpoint that is in the way (of another walk, damaged, not one at all, or not chosen by a flag): exit status 2. */
export class CheckpointError extends Error {}

export class Checkpoint {
	private constructor(private readonly handle: FileHandle) {}

	/**
	 * Opens the walk's checkpoint for appending, created if there is none or it holds no page; with
	 * `resume`, hands each page it holds to `onPage` first (which may throw to refuse it). Returns
	 * the pages it holds.
	 */
	static async open(path: string, walk: WalkName, mode: CheckpointMode, onPage: (page: SavedPage) => void): Promise<{ checkpoint: Checkpoint; pages: number }> {
		const existing = await open(path, 'r+').catch((error: NodeJS.ErrnoException) => {
			if (error.code === 'ENOENT') return undefined;
			throw error;
		});
		if (existing !== undefined) {
			let kept: { pages: number; goodBytes: number; size: number };
			try {
				const header = await readHeader(existing, path);
				const fits = header.version === VERSION && header.from === walk.from && header.account === walk.account;
				// A checkpoint without a page (a walk that failed at its first call) keeps nothing worth a choice.
				const pages = await readPages(existing, path, () => undefined, true);
				if (pages.pages > 0 && mode === 'refuse') {
					throw new CheckpointError(`${path} holds ${pages.pages} pages of an earlier walk${fits ? '' : ` (of ${String(header.from)} for account ${String(header.account)})`}: add --resume to continue it, or --restart to start over`);
				}
				if (pages.pages === 0 || mode === 'restart') kept = { pages: 0, goodBytes: 0, size: 0 };
				else {
					if (header.version !== VERSION) throw new CheckpointError(`${path} was written by another version of record: add --restart to start over`);
					if (!fits) {
						throw new CheckpointError(
							`${path} is the walk of ${String(header.from)} for account ${String(header.account)}: --resume continues it with that --from and --account only; add --restart to start over`,
						);
					}
					kept = await readPages(existing, path, onPage);
				}
			} finally {
				await existing.close();
			}
			if (kept.pages > 0) {
				if (kept.goodBytes < kept.size) await truncateTo(path, kept.goodBytes);
				return { checkpoint: new Checkpoint(await open(path, 'a')), pages: kept.pages };
			}
			await rm(path);
		}
		// Created whole under another name, then renamed: a walk's file always starts with its name.
		const temporary = `${path}.${process.pid}.tmp`;
		const created = await open(temporary, 'wx');
		await created.write(`${JSON.stringify({ format: FORMAT, version: VERSION, ...walk })}\n`);
		await created.sync();
		await created.close();
		await rename(temporary, path);
		return { checkpoint: new Checkpoint(await open(path, 'a')), pages: 0 };
	}

	/** The pages a finished checkpoint holds, one at a time; with `list`, that list's only (the others are not parsed). */
	static async *pages(path: string, list?: PageRequest['list']): AsyncGenerator<SavedPage> {
		// `add` writes the request first, and each request names its list first.
		const start = list === undefined ? '' : `{"request":{"list":${JSON.stringify(list)}`;
		const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
		let header = true;
		for await (const line of lines) {
			if (header) header = false;
			else if (line.startsWith(start)) yield JSON.parse(line) as SavedPage;
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

async function truncateTo(path: string, bytes: number): Promise<void> {
	const handle = await open(path, 'r+');
	try {
		await handle.truncate(bytes);
	} finally {
		await handle.close();
	}
}

interface Header {
	format?: unknown;
	version?: unknown;
	from?: unknown;
	account?: unknown;
}

async function readHeader(handle: FileHandle, path: string): Promise<Header> {
	const lines = createInterface({ input: handle.createReadStream({ start: 0, autoClose: false }), crlfDelay: Infinity });
	let header: Header | undefined;
	try {
		for await (const line of lines) {
			try {
				header = JSON.parse(line) as Header;
			} catch {
				// Not a checkpoint's first line.
			}
			break;
		}
	} finally {
		lines.close();
	}
	if (header?.format !== FORMAT) throw new CheckpointError(`${path} is not a record checkpoint: move it away or choose another --out`);
	return header;
}

/** Hands the file's complete page lines to `onPage`; how many there are, and how many bytes the good lines take. `countOnly`: lines are counted, not read. */
async function readPages(handle: FileHandle, path: string, onPage: (page: SavedPage) => void, countOnly = false): Promise<{ pages: number; goodBytes: number; size: number }> {
	const { size } = await handle.stat();
	let goodBytes = 0;
	let number = 0;
	const lines = createInterface({ input: handle.createReadStream({ start: 0, autoClose: false }), crlfDelay: Infinity });
	try {
		for await (const line of lines) {
			const bytes = Buffer.byteLength(line) + 1;
			number++;
			// The last line without its newline was cut short: the page it held is fetched again.
			if (goodBytes + bytes > size) break;
			goodBytes += bytes;
			if (number === 1 || countOnly) continue;
			let page: Partial<SavedPage>;
			try {
				page = JSON.parse(line) as Partial<SavedPage>;
			} catch {
				throw new CheckpointError(`${path} is damaged (line ${number} is not JSON): add --restart to start the walk over`);
			}
			if (typeof page.request !== 'object' || page.request === null || !('body' in page)) {
				throw new CheckpointError(`${path} is damaged (line ${number} is not a page): add --restart to start the walk over`);
			}
			onPage(page as SavedPage);
		}
	} finally {
		lines.close();
	}
	return { pages: Math.max(0, number - 1 - (goodBytes < size ? 1 : 0)), goodBytes, size };
}
