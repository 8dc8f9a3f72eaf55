/** Option lists of the Signal parameters, from the one copy of the hierarchy. */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { findCategory, SIGNAL_CATEGORIES } from '../contract';

const ALL = (what: string): INodePropertyOptions => ({ name: `All ${what}`, value: '' });

export async function getSignalCategories(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const group = this.getCurrentNodeParameter('group') as string;
	return [
		ALL('Categories'),
		...SIGNAL_CATEGORIES.filter((c) => c.group === group).map((c) => ({ name: c.name, value: c.id })),
	];
}

export async function getSignalTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const group = this.getCurrentNodeParameter('group') as string;
	const category = this.getCurrentNodeParameter('category') as string;
	const types = findCategory(group, category)?.types ?? [];
	return [ALL('Types'), ...types.map((type) => ({ name: type, value: type }))];
}
