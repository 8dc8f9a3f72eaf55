/** Job → Search: the account's jobs matching a search expression, places, job functions and tags, newest first. */
import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties, type NodeExecutionHint, type INodePropertyOptions } from 'n8n-workflow';
import { perItem, readLimit } from '../../helpers/items';
import { collectPages } from '../../../shared/pages/collect';
import { offsetList } from '../../../shared/pages/list-kinds';
import { shapedOutput } from '../../../shared/output/action';
import { readOptions, pagingOptions, wholeOption, withTotals } from '../../helpers/paging-options';
import { returnAllAndLimit, simplifyProperty, outputFor } from '../common.description';
import { searchFilterProperties, searchQuery, unavailableFilterError } from '../../../shared/job-search';
import { nothingMatched, searchQueryHints } from '../../../shared/search-syntax';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = {
	name: 'Search',
	value: 'search',
	description: 'Search the account\'s job posts by text, location and job function',
	action: 'Search jobs',
};

const properties: INodeProperties[] = [
	...searchFilterProperties,
	...returnAllAndLimit,
	simplifyProperty,
	...outputFor('job'),
	pagingOptions({
		displayName: 'Start At Offset',
		name: 'startOffset',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'How many matching jobs to skip, e.g. the resume_at.offset of an earlier run with Include Totals',
	}),
];

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['search'] } }, properties);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const filters = searchQuery(this.getNode(), (name, fallback) => this.getNodeParameter(name, itemIndex, fallback), itemIndex);
	const limit = readLimit(this, itemIndex);
	const options = readOptions(this, itemIndex);
	const startOffset = wholeOption(this, options, 'startOffset', 'Start At Offset', 0, 0, itemIndex);
	const collected = await collectPages(this, { request: { endpoint: 'jobSearch', operation: 'Job → Search' }, list: offsetList(filters, startOffset) }, { limit }).catch(async (error: unknown) => await Promise.reject(unavailableFilterError(this.getNode(), error, filters, itemIndex)));
	// Hints, not errors: what the service may read otherwise than meant, and a valid search that matched nothing.
	const hints: NodeExecutionHint[] = searchQueryHints(filters).map((hint) => ({ message: hint.message, type: 'warning', location: 'outputPane' }));
	if (collected.items.length === 0) hints.push({ message: nothingMatched(filters).message, type: 'info', location: 'outputPane' });
	if (hints.length > 0) this.addExecutionHints(...hints);
	return withTotals(shapedOutput(this, itemIndex, 'job', collected.items), options, collected.summary);
});
