/**
 * The webhook trigger's signal filters: the action node's category and type pickers (same hierarchy, same names),
 * as multi-selects that follow several chosen groups and categories (none chosen: all of them).
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { SIGNAL_CATEGORIES, signalTypeName } from '../contract';

const chosen = (context: ILoadOptionsFunctions, name: string): string[] => {
	const value = context.getCurrentNodeParameter(name);
	return Array.isArray(value) ? value.map(String) : [];
};

function categoriesOf(groups: string[]) {
	return SIGNAL_CATEGORIES.filter((category) => groups.length === 0 || groups.includes(category.group));
}

export async function getFilterSignalCategories(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const groups = chosen(this, 'signalFilters.groups');
	return categoriesOf(groups).map((c) => ({ name: `${c.name} (${c.group})`, value: c.id }));
}

export async function getFilterSignalTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const categories = chosen(this, 'signalFilters.categories');
	return categoriesOf(chosen(this, 'signalFilters.groups'))
		.filter((c) => categories.length === 0 || categories.includes(c.id))
		.flatMap((c) => c.types.map((type) => ({ name: signalTypeName(type), value: type })));
}

export const signalFilterPickers = { getFilterSignalCategories, getFilterSignalTypes };
