/** Job → Search: the account's jobs matching a search expression, places and job functions, newest first. */
import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';
import { API_PATHS, JOB_CATEGORIES } from '../../contract';
import { perItem, readLimit } from '../../helpers/items';
import { collectPages, offsetPager } from '../../transport/paginate';
import { simplified, simplifyJob } from '../../helpers/simplify';
import { readOptions, walkOptions, wholeOption, withTotals } from '../../helpers/walk-options';
import type { WalkSummary } from '../../transport/paginate';
import { returnAllAndLimit, simplifyProperty } from '../common.description';

/**
 * The search syntax in plain words, in the descriptions (what AI agents and the editor's tooltip read), not only in a hint.
 * The spec's rules as README's assumptions read them: comma entries are alternatives, an entry starting with - excludes,
 * +-joined words must all match, | also separates alternatives, words match case-insensitively anywhere.
 */
export const SEARCH_DESCRIPTION =
	'Words to find in the job posting\'s full text (title, description and tags), matched case-insensitively; empty returns all the account\'s jobs. Separate alternatives with commas: python,golang finds jobs that mention either word. Join words with + when all of them must appear: +python+senior. Start an entry with - to leave out jobs that mention it: python,-intern. Inside an entry, | also separates alternatives.';

export const LOCATIONS_DESCRIPTION =
	'Where the jobs are: city names or free-text places such as regions or countries, with the same rules as Search (Berlin,Munich finds jobs in either city; Europe,-London leaves out London). Empty: jobs anywhere.';

/** The Job Functions options, sorted by name as the editor lists them. */
export const JOB_FUNCTION_OPTIONS = [...JOB_CATEGORIES].sort((a, b) => a.localeCompare(b, 'en')).map((category) => ({ name: category, value: category }));

/** The search fields: also the Poll Trigger's New Job (search) parameters. */
export const searchFilterProperties: INodeProperties[] = [
	{
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		placeholder: 'e.g. +python+senior,golang',
		hint: 'e.g. +python+remote,-intern: python and remote both, and no intern',
		description: SEARCH_DESCRIPTION,
	},
	{
		displayName: 'Locations',
		name: 'locations',
		type: 'string',
		default: '',
		placeholder: 'e.g. Berlin,Munich',
		description: LOCATIONS_DESCRIPTION,
	},
	{
		displayName: 'Job Functions',
		name: 'categories',
		type: 'multiOptions',
		options: JOB_FUNCTION_OPTIONS,
		default: [],
		description: 'Only jobs tagged with at least one of these job functions; none chosen: any job function',
	},
];

const properties: INodeProperties[] = [
	...searchFilterProperties,
	...returnAllAndLimit,
	simplifyProperty,
	walkOptions({
		displayName: 'Start At Offset',
		name: 'startOffset',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'How many matching jobs to skip, e.g. the resume_at.offset of an earlier run with Include Totals',
	}),
];

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['search'] } }, properties);

/** The search query of the fields' values; empty fields are left out. */
export function searchFilters(search: string, locations: string, categories: string[]): IDataObject {
	const filters: IDataObject = {};
	if (search.trim() !== '') filters.search = search.trim();
	if (locations.trim() !== '') filters.locations = locations.trim();
	// Sent as a repeated parameter: one category name contains commas.
	if (categories.length > 0) filters.categories = categories;
	return filters;
}

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const filters = searchFilters(
		this.getNodeParameter('search', itemIndex, '') as string,
		this.getNodeParameter('locations', itemIndex, '') as string,
		this.getNodeParameter('categories', itemIndex, []) as string[],
	);
	const limit = readLimit(this, itemIndex);
	const options = readOptions(this, itemIndex);
	const startOffset = wholeOption(this, options, 'startOffset', 'Start At Offset', 0, 0, itemIndex);
	let summary: WalkSummary | undefined;
	const jobs = await collectPages.call(
		this,
		{ method: 'GET', on: 'api', path: API_PATHS.jobSearch, idempotent: true, operation: 'Job → Search' },
		offsetPager(filters, startOffset),
		{ limit, summary: options.includeTotals === true ? (s) => (summary = s) : undefined },
	);
	return withTotals(simplified(this, itemIndex, simplifyJob, jobs), summary);
});
