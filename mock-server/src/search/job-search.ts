/**
 * Job search: `search` against title, description, tags and categories;
 * `locations` against city, country and region; `categories` (repeated
 * parameter) keeps jobs tagged with any of them. Input is newest first and so is the output.
 */
import type { StoredJob } from '../data/model';
import { isEmpty, matches, parseExpression } from './expression';

export interface JobSearch {
	search?: string;
	locations?: string;
	categories: readonly string[];
}

export function searchJobs(jobs: readonly StoredJob[], query: JobSearch): readonly StoredJob[] {
	const search = parseExpression(query.search ?? '');
	const locations = parseExpression(query.locations ?? '');
	const categories = new Set(query.categories);
	if (isEmpty(search) && isEmpty(locations) && categories.size === 0) return jobs;
	return jobs.filter(
		(j) =>
			(categories.size === 0 || j.job.categories.some((c) => categories.has(c))) &&
			matches(locations, j.places) &&
			matches(search, j.text),
	);
}
