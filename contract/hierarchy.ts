/**
 * The signal hierarchy as the service description gives it: groups contain
 * categories, categories contain types. This is the only copy of the list;
 * the mock, the nodes and the tests all read it from here.
 */
export const SIGNAL_HIERARCHY = [
	{
		group: 'problems',
		categories: [
			{ id: 'finance', name: 'Finance', types: ['cash-flow-constraints'] },
			{ id: 'it', name: 'IT', types: ['outdated-legacy-systems'] },
			{ id: 'operations', name: 'Operations', types: ['process-inefficiencies'] },
			{
				id: 'strategy-and-leadership',
				name: 'Strategy And Leadership',
				types: ['unclear-vision-and-mission'],
			},
			{ id: 'sales-and-marketing', name: 'Sales And Marketing', types: ['low-conversion-rates'] },
			{ id: 'product-and-r-and-d', name: 'Product And R&D', types: ['poor-product-market-fit'] },
			{ id: 'customer-service', name: 'Customer Service', types: ['inconsistent-service-quality'] },
			{
				id: 'legal-and-compliance',
				name: 'Legal And Compliance',
				types: ['data-privacy-requirements'],
			},
		],
	},
	{
		group: 'changes',
		categories: [
			{ id: 'url', name: 'URL', types: ['domain-url-change', 'careers-url-change', 'jobboard-url-change'] },
			{ id: 'content', name: 'Content', types: ['homepage-content-change'] },
			{ id: 'tech', name: 'Tech', types: ['tech-change-planned', 'tech-change-completed'] },
			{
				id: 'location',
				name: 'Location',
				types: ['location-change-planned', 'location-change-completed'],
			},
		],
	},
] as const;

export type SignalGroup = (typeof SIGNAL_HIERARCHY)[number]['group'];

export interface SignalCategoryInfo {
	group: SignalGroup;
	id: string;
	name: string;
	types: readonly string[];
}

export const SIGNAL_GROUPS: readonly SignalGroup[] = SIGNAL_HIERARCHY.map((g) => g.group);

/** Every category, flattened, with its group beside it. */
export const SIGNAL_CATEGORIES: readonly SignalCategoryInfo[] = SIGNAL_HIERARCHY.flatMap((g) =>
	g.categories.map((c) => ({ group: g.group, id: c.id, name: c.name, types: c.types })),
);

export function findCategory(group: string, category: string): SignalCategoryInfo | undefined {
	return SIGNAL_CATEGORIES.find((c) => c.group === group && c.id === category);
}

export function isSignalGroup(value: string): value is SignalGroup {
	return (SIGNAL_GROUPS as readonly string[]).includes(value);
}

/** Words the service writes in capitals inside slugs (the categories' own names do too: IT, URL). */
const ACRONYMS = new Set(['it', 'url']);

/** A type's display name from its slug ("cash-flow-constraints" → "Cash Flow Constraints"); types carry no name of their own. */
export function signalTypeName(type: string): string {
	return type
		.split('-')
		.map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1)))
		.join(' ');
}

/** A category's display name: the hierarchy's, or the slug's for a category newer than this list. */
export function signalCategoryName(group: string, category: string): string {
	return findCategory(group, category)?.name ?? signalTypeName(category);
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The ids of a group, category and type given by id or by display name
 * ("IT", "Cash Flow Constraints"), in any case. A value this list does not
 * know is kept as given: the service may have added it since (its answer
 * says whether it exists).
 */
export function signalIds(group: string, category: string, type: string): { group: string; category: string; type: string } {
	const groupId = SIGNAL_GROUPS.find((g) => same(g, group)) ?? group;
	const info = SIGNAL_CATEGORIES.find((c) => c.group === groupId && (same(c.id, category) || same(c.name, category)));
	const categoryId = info?.id ?? category;
	const typeId = info?.types.find((t) => same(t, type) || same(signalTypeName(t), type)) ?? type;
	return { group: groupId, category: categoryId, type: typeId };
}
