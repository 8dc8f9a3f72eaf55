/** Job → Search: the account's jobs matching a search expression, places and job functions, newest first. */
import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';
import { API_PATHS, JOB_CATEGORIES } from '../../contract';
import { perItem, readLimit } from '../../helpers/items';
import { collectPages, offsetPager } from '../../transport/paginate';
import { returnAllAndLimit } from '../common.description';

const SYNTAX_HINT =
	'Commas separate alternatives (OR). Prefix a term with + to require it or - to exclude it; within one alternative, +-joined terms must all match. | also separates alternatives. Example: +python+remote,-intern';

/** The search fields: also the Poll Trigger's New Job (search) parameters. */
export const searchFilterProperties: INodeProperties[] = [
	{
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		placeholder: 'e.g. +python+senior,golang',
		hint: SYNTAX_HINT,
		description: 'Matches the full job posting text, not only tags. Empty: all the account\'s jobs.',
	},
	{
		displayName: 'Locations',
		name: 'locations',
		type: 'string',
		default: '',
		placeholder: 'e.g. Berlin,+Europe',
		hint: 'Same syntax as Search. Cities or free-text places such as regions.',
	},
	{
		displayName: 'Job Functions',
		name: 'categories',
		type: 'multiOptions',
		options: JOB_CATEGORIES.map((category) => ({ name: category, value: category })),
		default: [],
		description: 'Only jobs tagged with one of these job function categories',
	},
];

const properties: INodeProperties[] = [...searchFilterProperties, ...returnAllAndLimit];

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
	return await collectPages.call(
		this,
		{ method: 'GET', on: 'api', path: API_PATHS.jobSearch, idempotent: true, operation: 'Job → Search' },
		offsetPager(filters),
		limit,
	);
});
