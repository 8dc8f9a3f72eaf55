/**
 * Job search: `search` against title, description, tags and categories;
 * `locations` against city, country and region; `categories` (repeated
 * parameter) keeps jobs tagged with any of them. Input is newest first and so
 * is the output. The scan runs in slices (data/in-slices.ts): one search used
 * to hold the event loop 35–500 ms.
 */
import { inSlices, type Pause } from '../data/in-slices';
import type { StoredJob } from '../data/model';
import { isEmpty, matches, parseExpression } from './expression';

export interface JobSearch {
	search?: string;
	locations?: string;
	categories: readonly string[];
}

export async function searchJobs(jobs: readonly StoredJob[], query: JobSearch, pause?: Pause): Promise<readonly StoredJob[]> {
	const search = parseExpression(query.search ?? '');
	const locations = parseExpression(query.locations ?? '');
	const categories = new Set(query.categories);
	if (isEmpty(search) && isEmpty(locations) && categories.size === 0) return jobs;
	const found: StoredJob[] = [];
	const keep = (j: StoredJob) => {
		if (hasCategory(j, categories) && matches(locations, j.places) && matches(search, j.text)) found.push(j);
	};
	await inSlices(jobs, keep, pause);
	return found;
}

function hasCategory(j: StoredJob, categories: ReadonlySet<string>): boolean {
	if (categories.size === 0) return true;
	for (const c of j.job.categories) if (categories.has(c)) return true;
	return false;
}
