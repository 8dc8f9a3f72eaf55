/**
 * Job search's filters, shared by Job → Search and the Poll Trigger's "A Job Search": the fields, the query they make,
 * and the error for a filter the account's plan lacks.
 */
import { NodeApiError, NodeOperationError, type IDataObject, type INode, type INodeProperties } from 'n8n-workflow';
import { CHOICES, JOB_CATEGORIES } from './contract';
import { explained } from './transport/errors';
import { compareNames, readString, readStrings, type ParameterReader } from './parameters';
import { assertSearchSyntax } from './search-syntax';

/**
 * The search syntax in plain words, in the descriptions (what AI agents and the editor's tooltip read), not only in a hint.
 * The spec's rules as the project reads them (docs/api-assumptions.md, "Other answers the spec leaves open"): comma entries are alternatives, an entry starting with - excludes,
 * +-joined words must all match, | also separates alternatives, words match case-insensitively anywhere.
 */
const SEARCH_DESCRIPTION =
	'Words to find in the job posting\'s full text (title, description and tags), matched case-insensitively; empty returns all the account\'s jobs. Separate alternatives with commas: python,golang finds jobs that mention either word. Join words with + when all of them must appear: +python+senior. Start an entry with - to leave out jobs that mention it: python,-intern. Inside an entry, | also separates alternatives.';

const LOCATIONS_DESCRIPTION =
	'Where the jobs are: city names or free-text places such as regions or countries, with the same rules as Search (Berlin,Munich finds jobs in either city; Europe,-London leaves out London). Empty: jobs anywhere.';

/** The Job Functions options, sorted by name as the editor lists them. */
const JOB_FUNCTION_OPTIONS = [...JOB_CATEGORIES].sort(compareNames).map((category) => ({ name: category, value: category }));

/** Job Tags and Industry Tags: the account's own lists (its Get Filters answer), loaded when the editor opens them. */
const TAGS_BY_EXPRESSION = 'By expression: a list, e.g. {{ ["remote", "full-time"] }}, or one tag (a tag may contain commas, so text is not split).';

/** The filter fields of both nodes; their lists' loadOptions methods are `jobSearchOptionLists` (methods/loadOptions.ts). */
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
	{
		displayName: 'Job Tag Names or IDs',
		name: 'jobTags',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getJobTags' },
		default: [],
		description: `Only jobs with at least one of these job tags (the account's, as Job → Get Filters lists them); none chosen: any. ${TAGS_BY_EXPRESSION} Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	},
	{
		displayName: 'Industry Tag Names or IDs',
		name: 'industryTags',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getIndustryTags' },
		default: [],
		description: `Only jobs of companies in at least one of these industries (the account's industry tags, as Job → Get Filters lists them); none chosen: any. Plans without an attached job board have no industry filter. ${TAGS_BY_EXPRESSION} Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	},
];

/** A tag list as the field or an expression gives it: a list of tags or one tag; empty entries are left out. */
function readTags(node: INode, read: ParameterReader, name: string, label: string, itemIndex?: number): string[] {
	const value = read(name, []);
	const list = typeof value === 'string' ? [value] : value;
	if (!Array.isArray(list) || list.some((tag) => typeof tag !== 'string')) {
		throw new NodeOperationError(node, `${label} must be a list of tags, got ${JSON.stringify(value)}`, { itemIndex, description: TAGS_BY_EXPRESSION });
	}
	return (list as string[]).map((tag) => tag.trim()).filter((tag) => tag !== '');
}

/** The search query of the fields' values; empty fields are left out. */
export function searchQuery(node: INode, read: ParameterReader, itemIndex?: number): IDataObject {
	const filters: IDataObject = {};
	const search = readString(node, read, 'search', 'Search', '', itemIndex);
	const locations = readString(node, read, 'locations', 'Locations', '', itemIndex);
	// Checked before anything is sent: the service answers a search it cannot read with nothing, not an error.
	assertSearchSyntax(node, 'Search', search, itemIndex);
	assertSearchSyntax(node, 'Locations', locations, itemIndex);
	const categories = readStrings(node, read, 'categories', 'Job Functions', itemIndex);
	const jobTags = readTags(node, read, 'jobTags', 'Job Tags', itemIndex);
	const industryTags = readTags(node, read, 'industryTags', 'Industry Tags', itemIndex);
	if (search !== '') filters.search = search;
	if (locations !== '') filters.locations = locations;
	// Lists are sent as repeated parameters: one category name contains commas, and so may a tag.
	if (categories.length > 0) filters.categories = categories;
	if (jobTags.length > 0) filters[CHOICES.jobSearchTagParams.jobTags] = jobTags;
	if (industryTags.length > 0) filters[CHOICES.jobSearchTagParams.industryTags] = industryTags;
	return filters;
}

/**
 * Filters a plan can lack (spec: on high-volume plans without an attached job board, category and industry filters
 * may be unavailable), by query parameter, with the field that sends it.
 */
const PLAN_FILTERS = [
	{ param: 'categories', field: 'Job Functions', what: 'job function (category)' },
	{ param: CHOICES.jobSearchTagParams.industryTags, field: 'Industry Tags', what: 'industry' },
];

/** The service's refusal of a filter the account's plan lacks, as what to do; any other failure goes on as it came. */
export function unavailableFilterError(node: INode, error: unknown, filters: IDataObject, itemIndex?: number): unknown {
	if (!(error instanceof NodeApiError && error.httpCode === String(CHOICES.unavailableFilterStatus))) return error;
	// A job function the list lacks (given by expression) is the value's fault, whatever the plan: the service's error names it.
	const categories = filters.categories === undefined ? [] : ([] as unknown[]).concat(filters.categories);
	if (categories.some((category) => !(JOB_CATEGORIES as readonly unknown[]).includes(category))) return error;
	const sent = PLAN_FILTERS.filter((filter) => filters[filter.param] !== undefined);
	const said = error.description ?? error.message;
	const named = sent.filter((filter) => said.includes(filter.param));
	if (named.length > 0) {
		return explained(node, error, {
			message: `This account's plan has no ${named.map((f) => f.what).join(' or ')} filter — remove ${named.map((f) => f.field).join(' and ')}`,
			description: `The service answered: ${said}. High-volume plans without an attached job board cannot filter by job function or industry; Job → Get Filters lists what this account can filter by.`,
		}, itemIndex);
	}
	// A refused token (the transport's own error) is not about filters.
	if (sent.length === 0 || /token/i.test(said)) return error;
	return explained(node, error, {
		description: `${said}. If this account is on a high-volume plan without an attached job board, it has no ${sent.map((f) => f.what).join(' or ')} filter: remove ${sent.map((f) => f.field).join(' and ')}.`,
	}, itemIndex);
}
