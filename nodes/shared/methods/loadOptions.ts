/** Option lists: the Signal parameters' from the one copy of the hierarchy; Job Search's tags from the account's Get Filters answer. */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { findCategory, SIGNAL_CATEGORIES, signalTypeName } from '../contract';
import { compareNames } from '../parameters';
import { serviceRequest } from '../transport/request';

const ALL = (what: string): INodePropertyOptions => ({ name: `All ${what}`, value: '' });

export async function getSignalCategories(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const group = String(this.getCurrentNodeParameter('group') ?? '');
	return [
		ALL('Categories'),
		...SIGNAL_CATEGORIES.filter((c) => c.group === group).map((c) => ({ name: c.name, value: c.id })),
	];
}

/** The Signal filters' lists, for every node that offers those filters (this node and the Poll Trigger). */
export const signalOptionLists = { getSignalCategories, getSignalTypes };

export async function getSignalTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const group = String(this.getCurrentNodeParameter('group') ?? '');
	const category = String(this.getCurrentNodeParameter('category') ?? '');
	const types = findCategory(group, category)?.types ?? [];
	// Title-cased names ("Cash Flow Constraints") beside the title-cased categories; the value stays the service's slug.
	return [ALL('Types'), ...types.map((type) => ({ name: signalTypeName(type), value: type }))];
}

/** One of Get Filters' lists (`job_tags`, `industry_tags`), sorted by name as the editor's other lists are. */
async function filterOptions(context: ILoadOptionsFunctions, list: 'job_tags' | 'industry_tags'): Promise<INodePropertyOptions[]> {
	const filters = await serviceRequest(context, { endpoint: 'jobFilters', operation: 'Job Search filter list' });
	const values = [...new Set(filters[list])];
	return values.sort((a, b) => compareNames(a, b) || a.localeCompare(b)).map((value) => ({ name: value, value }));
}

export async function getJobTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await filterOptions(this, 'job_tags');
}

export async function getIndustryTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await filterOptions(this, 'industry_tags');
}

/** The job search filters' lists, for every node that offers those filters (this node's Job → Search and the Poll Trigger). */
export const jobSearchOptionLists = { getJobTags, getIndustryTags };
