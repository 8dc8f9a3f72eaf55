/**
 * The data file a finished walk makes (README "Your own data"), written from the checkpoint
 * (FILE.partial) a page at a time, never the whole account in memory: one pass indexes the
 * collections and their sources (ids and domains), and the domains sources moved from; then the
 * sources, the jobs and the signals are each written in a pass of their own, a record a line. A
 * record is left out of the file when the mock's `--data` reader would refuse it: it does not fit
 * the contract (the drift report names where), a job or signal whose source was not in the
 * collections (or not under that domain) when it was listed, a signal whose group/category/type
 * is not a place in the hierarchy, a source whose domain another source has; and a record a later
 * page repeats (the account changed during the walk) is written once. Memory: the collections,
 * each source's id and domain, the moves' domains, and a fingerprint of each job's and signal's id
 * (id-set.mts). Written under another name then renamed, so FILE is either whole or absent.
 */
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { collectionSchema, jobSchema, signalSchema, sourceSchema } from '../base/contract.mts';
import { ALL_TYPES } from '../data/generate.mts';
import { DOMAIN_CHANGE_TYPE } from '../data/model.mts';
import { Checkpoint } from './checkpoint.mts';
import { IdSet } from './id-set.mts';
import type { PageRequest } from './walk.mts';

/** Bytes gathered before a write call. */
const WRITE_BYTES = 1 << 20;
const PLACES = new Set(ALL_TYPES.map((t) => `${t.group}/${t.category}/${t.type}`));

export interface CloneCounts {
	collections: number;
	sources: number;
	jobs: number;
	signals: number;
}

export interface Clone {
	written: CloneCounts;
	/** Records left out because they do not fit the contract (the drift report says where). */
	misfits: number;
	/** Jobs and signals left out: their source was not (or no longer under that domain) in the collections when they were listed. */
	orphans: number;
	/** Signals whose group/category/type is not a place in the hierarchy, and sources whose domain another source has. */
	refused: number;
	/** Bytes of the fingerprint tables (id-set.mts). */
	idBytes: number;
}

interface Index {
	collections: { collection_id: string; name: string; description: string; created_at: number; source_ids: Set<string> }[];
	/** Each source kept: its id and domain. */
	domains: Map<string, string>;
	/** `source_id previous_domain` of each domain move a signal tells. */
	formerDomains: Set<string>;
}

/** Writes FILE from the finished walk in `partial`, as the data of `accountId`. */
export async function writeClone(partial: string, out: string, accountId: string): Promise<Clone> {
	const clone: Clone = { written: { collections: 0, sources: 0, jobs: 0, signals: 0 }, misfits: 0, orphans: 0, refused: 0, idBytes: 0 };
	const index = await indexOf(partial, clone);
	const temporary = `${out}.${process.pid}.tmp`;
	const file = new LineWriter(await open(temporary, 'w'));
	try {
		await file.section('collections', (async function* () {
			for (const { source_ids, ...collection } of index.collections) yield { ...collection, account_id: accountId, source_ids: [...source_ids] };
		})(), clone.written, 'collections');
		const emitted = new Set<string>();
		await file.section('sources', records(partial, 'sources', (raw) => {
			const source = sourceSchema.safeParse(raw);
			if (!source.success || index.domains.get(source.data.source_id) !== source.data.url_source || emitted.has(source.data.source_id)) return undefined;
			emitted.add(source.data.source_id);
			return source.data;
		}), clone.written, 'sources');
		const jobIds = new IdSet();
		await file.section('jobs', records(partial, 'jobs', (raw) => {
			const job = jobSchema.safeParse(raw);
			if (!job.success) return count(clone, 'misfits');
			if (index.domains.get(job.data.source_id) !== job.data.url_source) return count(clone, 'orphans');
			// Job search lists live jobs only; the reader takes no deleted one.
			if (job.data.deleted_at !== undefined) return count(clone, 'refused');
			return jobIds.add(job.data.job_id) ? job.data : undefined;
		}), clone.written, 'jobs');
		const signalIds = new IdSet();
		await file.section('signals', records(partial, 'signals', (raw) => {
			const signal = signalSchema.safeParse(raw);
			if (!signal.success) return count(clone, 'misfits');
			const { info, source_id, url_source } = signal.data;
			if (!PLACES.has(`${info.group}/${info.category}/${info.type}`)) return count(clone, 'refused');
			if (index.domains.get(source_id) !== url_source && !index.formerDomains.has(`${source_id} ${url_source}`)) return count(clone, 'orphans');
			return signalIds.add(signal.data.signal_id) ? signal.data : undefined;
		}), clone.written, 'signals');
		await file.end();
		clone.idBytes = jobIds.bytes + signalIds.bytes;
	} catch (error) {
		await file.close();
		await rm(temporary, { force: true });
		throw error;
	}
	await file.close();
	await rename(temporary, out);
	return clone;
}

function count(clone: Clone, what: 'misfits' | 'orphans' | 'refused'): undefined {
	clone[what]++;
	return undefined;
}

/** The collections with the sources found in each (a source whose domain another source has is left out), and the domains sources moved from. */
async function indexOf(partial: string, clone: Clone): Promise<Index> {
	const index: Index = { collections: [], domains: new Map(), formerDomains: new Set() };
	const owners = new Map<string, string>();
	for await (const { request, body } of Checkpoint.pages(partial)) {
		if (request.list === 'collections') {
			for (const raw of (body as { data: unknown[] }).data) {
				const parsed = collectionSchema.safeParse(raw);
				if (!parsed.success) count(clone, 'misfits');
				else {
					const { collection_id, name, description, created_at } = parsed.data;
					index.collections.push({ collection_id, name, description, created_at, source_ids: new Set() });
				}
			}
		} else if (request.list === 'sources') {
			const held = index.collections.find((c) => c.collection_id === request.collection_id);
			for (const raw of (body as { data: unknown[] }).data) {
				const parsed = sourceSchema.safeParse(raw);
				if (!parsed.success) {
					count(clone, 'misfits');
					continue;
				}
				const { source_id, url_source } = parsed.data;
				const owner = owners.get(url_source);
				if (owner !== undefined && owner !== source_id) {
					count(clone, 'refused');
					continue;
				}
				owners.set(url_source, source_id);
				index.domains.set(source_id, url_source);
				held?.source_ids.add(source_id);
			}
		} else if (request.list === 'signals') {
			for (const raw of (body as { signals: unknown[] }).signals) {
				const signal = raw as { info?: { type?: unknown }; previous_value?: unknown; source_id?: unknown };
				if (signal.info?.type === DOMAIN_CHANGE_TYPE && typeof signal.previous_value === 'string' && signal.previous_value !== '') {
					index.formerDomains.add(`${String(signal.source_id)} ${signal.previous_value}`);
				}
			}
		}
	}
	return index;
}

/** The records of one list's pages that `keep` turns into a record of the file. */
async function* records(partial: string, list: PageRequest['list'], keep: (raw: unknown) => object | undefined): AsyncGenerator<object> {
	for await (const { request, body } of Checkpoint.pages(partial, list)) {
		if (request.list !== list) continue;
		for (const raw of (body as Record<string, unknown[]>)[list === 'signals' ? 'signals' : 'data']) {
			const record = keep(raw);
			if (record !== undefined) yield record;
		}
	}
}

/** The file's JSON, a record a line, in writes of about WRITE_BYTES. */
class LineWriter {
	private buffer: string[] = [];
	private buffered = 0;
	private sections = 0;

	constructor(private readonly handle: FileHandle) {}

	async section(key: string, items: AsyncIterable<object>, counts: CloneCounts, counted: keyof CloneCounts): Promise<void> {
		this.put(`${this.sections++ === 0 ? '{' : ','}\n"${key}": [`);
		let first = true;
		for await (const item of items) {
			this.put(`${first ? '\n' : ',\n'}${JSON.stringify(item)}`);
			first = false;
			counts[counted]++;
			if (this.buffered >= WRITE_BYTES) await this.flush();
		}
		this.put(first ? ']' : '\n]');
	}

	async end(): Promise<void> {
		this.put('\n}\n');
		await this.flush();
		await this.handle.sync();
	}

	async close(): Promise<void> {
		await this.handle.close();
	}

	private put(text: string): void {
		this.buffer.push(text);
		this.buffered += text.length;
	}

	private async flush(): Promise<void> {
		if (this.buffer.length === 0) return;
		await this.handle.write(this.buffer.join(''));
		this.buffer = [];
		this.buffered = 0;
	}
}
