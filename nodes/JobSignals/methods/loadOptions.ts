/** Option lists of the Signal parameters, from the one copy of the hierarchy. */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { findCategory, SIGNAL_CATEGORIES, signalTypeName } from '../contract';

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
	// Title-cased names ("Cash Flow Constraints") beside the title-cased categories; the value stays the service's slug.
	return [ALL('Types'), ...types.map((type) => ({ name: signalTypeName(type), value: type }))];
}
