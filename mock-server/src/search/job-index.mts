/**
 * An inverted index of the jobs, built once and kept up to date on every
 * change, so that a search reads the records it returns and few others.
 * Without it each search read all 100,000 jobs (~0.35 µs each: the records are
 * scattered in memory): 35–70 ms of CPU per search, 3 searches per second
 * under load.
 *
 * Every job gets a serial number (stable across updates; never reused). Its
 * search text and its places are split into words;
 * each word keeps the serials of the jobs that contain it, and so does each
 * category, each lower-cased job tag and each source (the industry filter
 * names sources). A one-word term occurs in a job exactly when one of the job's words
 * contains it (an occurrence cannot cross a separator the term does not
 * contain), so its set is exact. A term with several words can only occur
 * where each of its words occurs inside one of the job's words, which gives a
 * superset. An expression made only of exact sets is answered from the index;
 * otherwise the index answers a superset (no exclusion subtracted) and the
 * exact check (search/expression.mts `matches`) decides on those jobs alone.
 */
import type { Job } from '../base/contract.mts';
import type { Expression } from './expression.mts';
import { Postings } from './postings.mts';
import type { Work } from '../base/work.mts';

/** A job with the lower-cased text that search matches against (never sent); the store keeps jobs so (data/model.mts). */
export interface StoredJob {
	job: Job;
	text: string;
	places: string;
}

/** Words are runs of anything but white space (any fixed split keeps the reasoning above true). */
const WORD = /\S+/g;
const wordsOf = (text: string): readonly string[] => text.match(WORD) ?? [];

/** A postings and the keys a job is found by in it. */
type Field = [Postings, (job: StoredJob) => readonly string[]];

/** A mask over serials: exactly the matching jobs when `exact`, else a superset of them. */
export interface Candidates {
	mask: Uint8Array;
	exact: boolean;
}

export class JobIndex {
	private readonly serialById = new Map<string, number>();
	private readonly textWords = new Postings();
	private readonly placeWords = new Postings();
	private readonly categories = new Postings();
	private readonly jobTags = new Postings();
	private readonly sources = new Postings();
	/** What each job puts in each postings: the keys it is found by. */
	private readonly fields: readonly Field[] = [
		[this.textWords, (job) => wordsOf(job.text)],
		[this.placeWords, (job) => wordsOf(job.places)],
		[this.categories, (job) => job.job.categories],
		[this.jobTags, (job) => job.job.job_tags.map(lowerTag)],
		[this.sources, (job) => [job.job.source_id]],
	];
	private next = 0;
	/**
	 * Mask sets reused from search to search: a fresh set per search (~1 MB) drove the garbage collector
	 * under load. A search pauses between steps, so each search in progress holds a set of its own.
	 */
	private readonly spare: Scratch[] = [];

	/** Serials handed out: the masks' length, and the live jobs plus the deleted ones whose serials stay. */
	get size(): number {
		return this.next;
	}

	/** Jobs in the index now. */
	get live(): number {
		return this.serialById.size;
	}

	/** The serial of a job id (a new one for an id not seen before). */
	serialOf(jobId: string): number {
		let serial = this.serialById.get(jobId);
		if (serial === undefined) {
			serial = this.next++;
			this.serialById.set(jobId, serial);
		}
		return serial;
	}

	/** Returns the job's serial. */
	add(job: StoredJob): number {
		const serial = this.serialOf(job.job.job_id);
		for (const [postings, keysOf] of this.fields) for (const key of keysOf(job)) postings.add(key, serial);
		return serial;
	}

	/**
	 * Adds many jobs (the data set, at start-up) and returns their serials, position for position. Each
	 * job's keys are counted first, so that each list is made once at its size: grown serial by serial,
	 * the lists were copied about five times over, each copy a new ArrayBuffer, and V8 collects the whole
	 * heap (a gigabyte at a million jobs) when such buffers add up. Pass the jobs in the order they were
	 * made: in another order (newest first) it reads them scattered over the heap, ~1.4× the CPU at a million.
	 */
	addAll(jobs: readonly StoredJob[]): Int32Array {
		const serials = new Int32Array(jobs.length);
		jobs.forEach((job, i) => {
			serials[i] = this.serialOf(job.job.job_id);
			for (const [postings, keysOf] of this.fields) for (const key of keysOf(job)) postings.expect(key, serials[i]);
		});
		for (const [postings] of this.fields) postings.makeRoom();
		jobs.forEach((job, i) => {
			for (const [postings, keysOf] of this.fields) for (const key of keysOf(job)) postings.add(key, serials[i]);
		});
		return serials;
	}

	/** Moves the job's serial from the words it lost to the words it gained (an update changes a few, e.g. the title). */
	replace(previous: StoredJob, job: StoredJob): void {
		const serial = this.serialOf(job.job.job_id);
		const before = this.keysOf(previous);
		const after = this.keysOf(job);
		before.forEach(([postings, keys], i) => {
			const kept = new Set(after[i][1]);
			for (const key of keys) if (!kept.has(key)) postings.drop(key, serial);
		});
		after.forEach(([postings, keys], i) => {
			const had = new Set(before[i][1]);
			for (const key of keys) if (!had.has(key)) postings.add(key, serial);
		});
	}

	/**
	 * Forgets a deleted job. Its serial stays in the word lists: no account's job list
	 * holds it any more, so a search never reaches it, and taking it out would scan
	 * lists of up to 100,000 serials per word (~10 ms per cycle).
	 */
	remove(job: StoredJob): void {
		this.serialById.delete(job.job.job_id);
	}

	clear(): void {
		this.serialById.clear();
		this.textWords.clear();
		this.placeWords.clear();
		this.categories.clear();
		this.jobTags.clear();
		this.sources.clear();
		this.next = 0;
	}

	/**
	 * The jobs that match (or may match, when not `exact`) every part of a search. The work is
	 * counted in `work`, which pauses when a turn's share is spent, so other requests get theirs.
	 * Call `release` once the mask is read: its buffers go to the next search.
	 */
	async candidates(search: Expression, locations: Expression, filters: TagFilters, work: Work): Promise<Candidates & { release(): void }> {
		const scratch = this.spare.pop() ?? new Scratch();
		// Jobs added while the search pauses get serials past this size: the search does not see them.
		scratch.size = this.next;
		const text = await this.expressionCandidates(search, this.textWords, 'text', scratch, work);
		const places = await this.expressionCandidates(locations, this.placeWords, 'places', scratch, work);
		await pass(work, and(text.mask, places.mask));
		if (filters.categories.size > 0) await pass(work, and(text.mask, await this.anyOf(this.categories, filters.categories, scratch, work)));
		if (filters.jobTags.size > 0) await pass(work, and(text.mask, await this.anyOf(this.jobTags, filters.jobTags, scratch, work)));
		if (filters.sources !== undefined) await pass(work, and(text.mask, await this.anyOf(this.sources, filters.sources, scratch, work)));
		const release = () => {
			if (this.spare.length < MAX_SPARE_SCRATCH) this.spare.push(scratch);
		};
		return { mask: text.mask, exact: text.exact && places.exact, release };
	}

	/** Jobs holding any of the keys (the mask is reused by the next filter). */
	private async anyOf(postings: Postings, keys: ReadonlySet<string>, scratch: Scratch, work: Work): Promise<Uint8Array> {
		const mask = scratch.buffer('filter', 0);
		for (const key of keys) await setAll(mask, postings.serialsOf(key), work);
		return mask;
	}

	private keysOf(job: StoredJob): [Postings, readonly string[]][] {
		return this.fields.map(([postings, keysOf]) => [postings, keysOf(job)]);
	}

	/** The expression's algebra over term sets; a superset when any term's set is not exact (then no exclusion is subtracted). */
	private async expressionCandidates(expression: Expression, words: Postings, name: string, scratch: Scratch, work: Work): Promise<Candidates> {
		let exact = true;
		const term = async (text: string) => {
			const found = await this.termCandidates(text, words, scratch, work);
			exact &&= found.exact;
			return found;
		};
		const without = async (mask: Uint8Array, text: string) => {
			const excluded = await term(text);
			if (excluded.exact) await pass(work, andNot(mask, excluded.mask));
		};
		let mask: Uint8Array;
		if (expression.alternatives.length === 0) {
			mask = scratch.buffer(name, 1);
		} else {
			mask = scratch.buffer(name, 0);
			for (const alternative of expression.alternatives) {
				const inAlternative = scratch.buffer('alternative', 1);
				for (const included of alternative.include) await pass(work, and(inAlternative, (await term(included)).mask));
				for (const excluded of alternative.exclude) await without(inAlternative, excluded);
				await pass(work, or(mask, inAlternative));
			}
		}
		for (const excluded of expression.exclude) await without(mask, excluded);
		return { mask, exact };
	}

	/** Jobs with, for each word of the term, a word that contains it (the mask is reused by the next term). */
	private async termCandidates(term: string, words: Postings, scratch: Scratch, work: Work): Promise<Candidates> {
		const parts = [...new Set(wordsOf(term))];
		const mask = scratch.buffer('term', 1);
		for (const part of parts) {
			const holding = scratch.buffer('holding', 0);
			// Words numbered while the search pauses are compared too (size is read on each round).
			for (let number = 0; number < words.size; number++) {
				if (words.keyAt(number).includes(part)) {
					await setAll(holding, words.serialsAt(number), work);
				} else if ((number + 1) % WORDS_PER_STEP_CHECK === 0) {
					await work.spend(WORDS_PER_STEP_CHECK * STEPS_PER_WORD);
				}
			}
			await pass(work, and(mask, holding));
		}
		return { mask, exact: parts.length === 1 && parts[0] === term };
	}
}

/** The masks of one search in progress, one entry per serial the index had when it started. */
class Scratch {
	size = 0;
	private readonly masks = new Map<string, Uint8Array>();

	/** The named mask, filled with `value`. */
	buffer(name: string, value: 0 | 1): Uint8Array {
		let mask = this.masks.get(name);
		if (mask === undefined || mask.length !== this.size) {
			mask = new Uint8Array(this.size);
			this.masks.set(name, mask);
		}
		return mask.fill(value);
	}
}

/** Searches in progress at once beyond this allocate their masks and leave them to the garbage collector. */
const MAX_SPARE_SCRATCH = 4;
/** A word compared with a part costs about as much as a few serials set (work.mts counts in serials). */
const STEPS_PER_WORD = 4;
const WORDS_PER_STEP_CHECK = 256;
/** Serials set between two checks of the work budget. */
const SERIALS_PER_STEP_CHECK = 4096;

/** Sets the serials' entries (past the mask: jobs newer than the search, skipped), counting the work. */
async function setAll(mask: Uint8Array, serials: Int32Array, work: Work): Promise<void> {
	for (let start = 0; start < serials.length; start += SERIALS_PER_STEP_CHECK) {
		const end = Math.min(serials.length, start + SERIALS_PER_STEP_CHECK);
		for (let i = start; i < end; i++) mask[serials[i]] = 1;
		await work.spend(end - start);
	}
}

/** Counts a pass over a mask (a byte costs a fraction of a serial set: sequential, no lookup). */
function pass(work: Work, bytes: number): Promise<void> | undefined {
	return work.spend(bytes >>> 3);
}

/**
 * Job search's filters of listed values (each matches when the job has any of its values):
 * categories as given, job tags lower-cased (lowerTag), and the sources in the asked industries
 * (undefined: no industry filter).
 */
export interface TagFilters {
	categories: ReadonlySet<string>;
	jobTags: ReadonlySet<string>;
	sources?: ReadonlySet<string>;
}

/** Tags match case-insensitively: both sides go through this. */
export const lowerTag = (tag: string) => tag.toLowerCase();

/** In place, into `a`; each returns the bytes it passed over (for the work count). */
function and(a: Uint8Array, b: Uint8Array): number {
	for (let i = 0; i < a.length; i++) a[i] &= b[i];
	return a.length;
}

function or(a: Uint8Array, b: Uint8Array): number {
	for (let i = 0; i < a.length; i++) a[i] |= b[i];
	return a.length;
}

function andNot(a: Uint8Array, b: Uint8Array): number {
	for (let i = 0; i < a.length; i++) a[i] &= b[i] ^ 1;
	return a.length;
}
