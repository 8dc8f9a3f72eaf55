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
 * exact check (search/expression.ts `matches`) decides on those jobs alone.
 */
import type { StoredJob } from '../data/model';
import type { Expression } from './expression';

/** Words are runs of anything but white space (any fixed split keeps the reasoning above true). */
const WORD_SEPARATORS = /\s+/;
const wordsOf = (text: string) => text.split(WORD_SEPARATORS).filter((w) => w !== '');

/** A mask over serials: exactly the matching jobs when `exact`, else a superset of them. */
export interface Candidates {
	mask: Uint8Array;
	exact: boolean;
}

export class JobIndex {
	private readonly serialById = new Map<string, number>();
	private readonly textWords = new Map<string, number[]>();
	private readonly placeWords = new Map<string, number[]>();
	private readonly categories = new Map<string, number[]>();
	private readonly jobTags = new Map<string, number[]>();
	private readonly sources = new Map<string, number[]>();
	private next = 0;
	/** Masks reused from search to search: a fresh set per search (~1 MB) drove the garbage collector under load. */
	private readonly scratch = new Map<string, Uint8Array>();

	/** The serial of a job id (a new one for an id not seen before). */
	serialOf(jobId: string): number {
		let serial = this.serialById.get(jobId);
		if (serial === undefined) {
			serial = this.next++;
			this.serialById.set(jobId, serial);
		}
		return serial;
	}

	add(job: StoredJob): void {
		const serial = this.serialOf(job.job.job_id);
		for (const [postings, keys] of this.keysOf(job)) for (const key of keys) push(postings, key, serial);
	}

	/** Moves the job's serial from the words it lost to the words it gained (an update changes a few, e.g. the title). */
	replace(previous: StoredJob, job: StoredJob): void {
		const serial = this.serialOf(job.job.job_id);
		const before = this.keysOf(previous);
		const after = this.keysOf(job);
		before.forEach(([postings, keys], i) => {
			const kept = new Set(after[i][1]);
			for (const key of keys) if (!kept.has(key)) drop(postings, key, serial);
		});
		after.forEach(([postings, keys], i) => {
			const had = new Set(before[i][1]);
			for (const key of keys) if (!had.has(key)) push(postings, key, serial);
		});
	}

	/**
	 * Forgets a deleted job. Its serial stays in the word lists: no account's job list
	 * holds it any more, so a search never reaches it, and taking it out would scan
	 * lists of up to 100,000 serials per word (~10 ms per processing cycle).
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
	 * The jobs that match (or may match, when not `exact`) every part of a search.
	 * The mask is reused by the next call: read it before giving up the event loop.
	 */
	candidates(search: Expression, locations: Expression, filters: TagFilters): Candidates {
		const text = this.expressionCandidates(search, this.textWords, 'text');
		const places = this.expressionCandidates(locations, this.placeWords, 'places');
		and(text.mask, places.mask);
		if (filters.categories.size > 0) and(text.mask, this.anyOf(this.categories, filters.categories));
		if (filters.jobTags.size > 0) and(text.mask, this.anyOf(this.jobTags, filters.jobTags));
		if (filters.sources !== undefined) and(text.mask, this.anyOf(this.sources, filters.sources));
		return { mask: text.mask, exact: text.exact && places.exact };
	}

	/** Jobs holding any of the keys (the mask is reused by the next filter). */
	private anyOf(postings: Map<string, number[]>, keys: ReadonlySet<string>): Uint8Array {
		const mask = this.buffer('filter', 0);
		for (const key of keys) for (const serial of postings.get(key) ?? []) mask[serial] = 1;
		return mask;
	}

	private keysOf(job: StoredJob): [Map<string, number[]>, string[]][] {
		return [
			[this.textWords, wordsOf(job.text)],
			[this.placeWords, wordsOf(job.places)],
			[this.categories, job.job.categories],
			[this.jobTags, job.job.job_tags.map(lowerTag)],
			[this.sources, [job.job.source_id]],
		];
	}

	/** The expression's algebra over term sets; a superset when any term's set is not exact (then no exclusion is subtracted). */
	private expressionCandidates(expression: Expression, words: Map<string, number[]>, name: string): Candidates {
		let exact = true;
		const term = (text: string) => {
			const found = this.termCandidates(text, words);
			exact &&= found.exact;
			return found;
		};
		const without = (mask: Uint8Array, text: string) => {
			const excluded = term(text);
			if (excluded.exact) andNot(mask, excluded.mask);
		};
		let mask: Uint8Array;
		if (expression.alternatives.length === 0) {
			mask = this.buffer(name, 1);
		} else {
			mask = this.buffer(name, 0);
			for (const alternative of expression.alternatives) {
				const inAlternative = this.buffer('alternative', 1);
				for (const included of alternative.include) and(inAlternative, term(included).mask);
				for (const excluded of alternative.exclude) without(inAlternative, excluded);
				or(mask, inAlternative);
			}
		}
		for (const excluded of expression.exclude) without(mask, excluded);
		return { mask, exact };
	}

	/** Jobs with, for each word of the term, a word that contains it (the mask is reused by the next term). */
	private termCandidates(term: string, words: Map<string, number[]>): Candidates {
		const parts = [...new Set(wordsOf(term))];
		const mask = this.buffer('term', 1);
		for (const part of parts) {
			const holding = this.buffer('holding', 0);
			for (const [word, serials] of words) if (word.includes(part)) for (const serial of serials) holding[serial] = 1;
			and(mask, holding);
		}
		return { mask, exact: parts.length === 1 && parts[0] === term };
	}

	/** The named scratch mask, one entry per serial, filled with `value`. */
	private buffer(name: string, value: 0 | 1): Uint8Array {
		let mask = this.scratch.get(name);
		if (mask === undefined || mask.length !== this.next) {
			mask = new Uint8Array(this.next);
			this.scratch.set(name, mask);
		}
		return mask.fill(value);
	}
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

/** In place, into `a`. */
function and(a: Uint8Array, b: Uint8Array): void {
	for (let i = 0; i < a.length; i++) a[i] &= b[i];
}

function or(a: Uint8Array, b: Uint8Array): void {
	for (let i = 0; i < a.length; i++) a[i] |= b[i];
}

function andNot(a: Uint8Array, b: Uint8Array): void {
	for (let i = 0; i < a.length; i++) a[i] &= b[i] ^ 1;
}

/** A job's serial goes in once per key: a key repeated within one job finds it last in the list. */
function push(postings: Map<string, number[]>, key: string, serial: number): void {
	const list = postings.get(key);
	if (list === undefined) postings.set(key, [serial]);
	else if (list[list.length - 1] !== serial) list.push(serial);
}

function drop(postings: Map<string, number[]>, key: string, serial: number): void {
	const list = postings.get(key);
	const at = list?.indexOf(serial) ?? -1;
	if (list === undefined || at < 0) return;
	// Order within a list does not matter: move the last entry into the hole.
	list[at] = list[list.length - 1];
	list.pop();
	if (list.length === 0) postings.delete(key);
}
