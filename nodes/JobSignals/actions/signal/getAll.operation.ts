/** Signal → Get Many: the signals of a group, a category or a type, all pages or up to a limit. */
import {
	NodeOperationError,
	updateDisplayOptions,
	type IExecuteFunctions,
	type INode,
	type INodeProperties,
} from 'n8n-workflow';
import { API_PATHS, fillPath, findCategory, isSignalGroup, LIMITS, SIGNAL_GROUPS } from '../../contract';
import { perItem, readLimit } from '../../helpers/items';
import { collectPages, pageNumberPager } from '../../transport/paginate';
import { simplified, simplifySignal } from '../../helpers/simplify';
import { returnAllAndLimit, simplifyProperty } from '../common.description';

/** Which signals: also the Poll Trigger's New Signal parameters. */
export const signalFilterProperties: INodeProperties[] = [
	{
		displayName: 'Group',
		name: 'group',
		type: 'options',
		options: SIGNAL_GROUPS.map((group) => ({ name: group[0].toUpperCase() + group.slice(1), value: group })),
		default: 'problems',
		description: 'Problems: detected company problems. Changes: detected changes (domain, content, tech, location).',
	},
	{
		displayName: 'Category Name or ID',
		name: 'category',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSignalCategories', loadOptionsDependsOn: ['group'] },
		default: '',
		description:
			'Only signals of this category; empty for the whole group. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Type Name or ID',
		name: 'type',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSignalTypes', loadOptionsDependsOn: ['group', 'category'] },
		default: '',
		displayOptions: { hide: { category: [''] } },
		description:
			'Only signals of this type; empty for the whole category. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Direct Only',
		name: 'directOnly',
		type: 'boolean',
		default: true,
		description: 'Whether to return only signals with direct evidence (off: inferred signals too)',
	},
	{
		displayName: 'Active Only',
		name: 'activeOnly',
		type: 'boolean',
		default: true,
		description: 'Whether to return only signals the company currently has (off: inactive ones too)',
	},
];

const properties: INodeProperties[] = [...signalFilterProperties, ...returnAllAndLimit, simplifyProperty];

export const description = updateDisplayOptions({ show: { resource: ['signal'], operation: ['getAll'] } }, properties);

/** The endpoint for a group, category and type, checked against the hierarchy (empty category or type: all of them). */
export function signalsPathFor(node: INode, group: string, category: string, type: string, itemIndex?: number): string {
	const fail = (message: string) => new NodeOperationError(node, message, { itemIndex });
	if (!isSignalGroup(group)) throw fail(`Unknown signal group "${group}": use one of ${SIGNAL_GROUPS.join(', ')}`);
	if (category === '') return fillPath(API_PATHS.signalsOfGroup, { group });
	const info = findCategory(group, category);
	if (!info) throw fail(`Unknown category "${category}" in group "${group}"`);
	if (type === '') return fillPath(API_PATHS.signalsOfCategory, { group, category });
	if (!info.types.includes(type)) throw fail(`Unknown type "${type}" in category "${group}/${category}": use one of ${info.types.join(', ')}`);
	return fillPath(API_PATHS.signalsOfType, { group, category, type });
}

function signalsPath(context: IExecuteFunctions, itemIndex: number): string {
	const group = context.getNodeParameter('group', itemIndex) as string;
	const category = (context.getNodeParameter('category', itemIndex, '') as string).trim();
	const type = category === '' ? '' : (context.getNodeParameter('type', itemIndex, '') as string).trim();
	return signalsPathFor(context.getNode(), group, category, type, itemIndex);
}

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const path = signalsPath(this, itemIndex);
	const limit = readLimit(this, itemIndex);
	const perPage = Math.min(limit ?? LIMITS.signalsMaxPerPage, LIMITS.signalsMaxPerPage);
	const filters = {
		direct_only: this.getNodeParameter('directOnly', itemIndex) as boolean,
		active_only: this.getNodeParameter('activeOnly', itemIndex) as boolean,
	};
	const signals = await collectPages.call(this, { method: 'GET', on: 'api', path, idempotent: true, operation: 'Signal → Get Many' }, pageNumberPager(perPage, filters), limit);
	return simplified(this, itemIndex, simplifySignal, signals);
});
