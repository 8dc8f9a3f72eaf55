/**
 * Job search: `search` against title, description, tags and categories;
 * `locations` against city, country and region; `categories` (repeated
 * parameter) keeps jobs tagged with any of them. Input is newest first and so
 * is the output. The index (job-index.ts) answers the search, or narrows it
 * to the jobs the exact check must read; either way the jobs are gathered in
 * slices (data/in-slices.ts), so a search matching most jobs still gives other
 * requests a turn.
 */
import { inSlices, type Pause } from '../data/in-slices';
import type { StoredJob } from '../data/model';
import { isEmpty, matches, parseExpression } from './expression';
import type { JobIndex } from './job-index';

export interface JobSearch {
	search?: string;
	locations?: string;
	categories: readonly string[];
}

/** An account's jobs, newest first, with their index serials at the same positions. */
export interface SearchScope {
	jobs: readonly StoredJob[];
	serials: Int32Array;
	index: JobIndex;
}

export async function searchJobs(scope: SearchScope, query: JobSearch, pause?: Pause): Promise<readonly StoredJob[]> {
	const search = parseExpression(query.search ?? '');
	const locations = parseExpression(query.locations ?? '');
	const categories = new Set(query.categories);
	if (isEmpty(search) && isEmpty(locations) && categories.size === 0) return scope.jobs;
	// The index reuses its mask on the next search: turned into positions at once, before any pause.
	const { mask, exact } = scope.index.candidates(search, locations, categories);
	const found: StoredJob[] = [];
	const keep = exact
		? (i: number) => void found.push(scope.jobs[i])
		: (i: number) => {
				const j = scope.jobs[i];
				if (hasCategory(j, categories) && matches(locations, j.places) && matches(search, j.text)) found.push(j);
			};
	await inSlices(candidatePositions(scope.serials, mask), keep, pause);
	return found;
}

/** Positions whose serial is a candidate, in order: passes over numbers only, no record is read. */
function candidatePositions(serials: Int32Array, candidates: Uint8Array): Int32Array {
	let count = 0;
	for (let i = 0; i < serials.length; i++) count += candidates[serials[i]];
	const positions = new Int32Array(count);
	for (let i = 0, at = 0; i < serials.length; i++) if (candidates[serials[i]] === 1) positions[at++] = i;
	return positions;
}

function hasCategory(j: StoredJob, categories: ReadonlySet<string>): boolean {
	if (categories.size === 0) return true;
	for (const c of j.job.categories) if (categories.has(c)) return true;
	return false;
}
