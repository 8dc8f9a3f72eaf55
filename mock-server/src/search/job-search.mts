/**
 * Job search: `search` against title, description, tags and categories;
 * `locations` against city, country and region; `categories`, `job_tags`
 * and `industry_tags` (repeated parameters) each keep jobs with any of their
 * values (tags case-insensitively; industries are the job's source's). Input is newest first and so
 * is the output. The index (job-index.mts) answers the search, or narrows it
 * to the jobs the exact check must read. Every step of it is counted (work.mts)
 * and the search pauses once a turn's share is spent, so a search matching most
 * jobs, or one of many one-letter terms, still gives other requests a turn.
 * A search has at most LIMITS.maxSearchWords words in its terms per parameter
 * and terms of at most LIMITS.maxSearchTermLength characters (searchLimitProblem).
 */
import { LIMITS, readSearch } from '../base/contract.mts';
import { isEmpty, matches, termsOf, type Expression } from './expression.mts';
import { lowerTag, type JobIndex, type StoredJob, type TagFilters } from './job-index.mts';
import { JOB_READ_STEPS, TERM_CHECK_STEPS, Work } from '../base/work.mts';

export interface JobSearch {
	search?: string;
	locations?: string;
	categories: readonly string[];
	job_tags: readonly string[];
	industry_tags: readonly string[];
}

/** An account's jobs, newest first, with their index serials at the same positions. */
export interface SearchScope {
	jobs: readonly StoredJob[];
	serials: Int32Array;
	index: JobIndex;
	/** The ids of the sources with any of these (lower-cased) industry tags. */
	sourcesIn(industries: ReadonlySet<string>): ReadonlySet<string>;
}

/** Why the search is refused (the 400's message), or undefined when it is within the limits. */
export function searchLimitProblem(query: Pick<JobSearch, 'search' | 'locations'>): string | undefined {
	for (const name of ['search', 'locations'] as const) {
		const terms = termsOf(readSearch(query[name] ?? ''));
		const long = terms.find((term) => term.length > LIMITS.maxSearchTermLength);
		if (long !== undefined) {
			return `Invalid query parameter "${name}": a term is ${long.length} characters long; at most ${LIMITS.maxSearchTermLength}`;
		}
		const words = terms.reduce((sum, term) => sum + term.split(' ').length, 0);
		if (words > LIMITS.maxSearchWords) {
			return `Invalid query parameter "${name}": its terms have ${words} words in all; at most ${LIMITS.maxSearchWords} (split it into several searches)`;
		}
	}
	return undefined;
}

/** `work` counts the search's steps and pauses it between turns (a test may pass its own, to read the count). */
export async function searchJobs(scope: SearchScope, query: JobSearch, work: Work = new Work()): Promise<readonly StoredJob[]> {
	const search = readSearch(query.search ?? '');
	const locations = readSearch(query.locations ?? '');
	const filters: TagFilters = {
		categories: new Set(query.categories),
		jobTags: new Set(query.job_tags.map(lowerTag)),
		sources: query.industry_tags.length === 0 ? undefined : scope.sourcesIn(new Set(query.industry_tags.map(lowerTag))),
	};
	if (isEmpty(search) && isEmpty(locations) && filters.categories.size === 0 && filters.jobTags.size === 0 && filters.sources === undefined) {
		return scope.jobs;
	}
	// The index reuses its mask on the next search: turned into positions at once, before any pause.
	const candidates = await scope.index.candidates(search, locations, filters, work);
	const positions = candidatePositions(scope.serials, candidates.mask);
	candidates.release();
	await work.spend(scope.serials.length >>> 2);
	const found: StoredJob[] = [];
	const keep = candidates.exact
		? (i: number) => void found.push(scope.jobs[i])
		: (i: number) => {
				const j = scope.jobs[i];
				if (passesFilters(j, filters) && matches(locations, j.places) && matches(search, j.text)) found.push(j);
			};
	const stepsPerJob = JOB_READ_STEPS + (candidates.exact ? 0 : TERM_CHECK_STEPS * (termCount(search) + termCount(locations)));
	for (const position of positions) {
		keep(position);
		const pausing = work.spend(stepsPerJob);
		if (pausing) await pausing;
	}
	return found;
}

const termCount = (expression: Expression) => termsOf(expression).length;

/** Positions whose serial is a candidate, in order: passes over numbers only, no record is read. */
function candidatePositions(serials: Int32Array, candidates: Uint8Array): Int32Array {
	let count = 0;
	for (let i = 0; i < serials.length; i++) count += candidates[serials[i]];
	const positions = new Int32Array(count);
	for (let i = 0, at = 0; i < serials.length; i++) if (candidates[serials[i]] === 1) positions[at++] = i;
	return positions;
}

function passesFilters({ job }: StoredJob, filters: TagFilters): boolean {
	return (
		hasAny(job.categories, filters.categories, (c) => c) &&
		hasAny(job.job_tags, filters.jobTags, lowerTag) &&
		(filters.sources === undefined || filters.sources.has(job.source_id))
	);
}

/** An empty filter lets every job through. */
function hasAny(values: readonly string[], wanted: ReadonlySet<string>, key: (value: string) => string): boolean {
	if (wanted.size === 0) return true;
	for (const v of values) if (wanted.has(key(v))) return true;
	return false;
}
