/** Which signals: the parameters and the endpoint they name, shared by Signal → Get Many and the Poll Trigger's New Signal. */
import { NodeOperationError, type INode, type INodeProperties } from 'n8n-workflow';
import { API_PATHS, fillPath, SIGNAL_GROUPS, signalIds } from './contract';
import { readBoolean, readString, type ParameterReader } from './parameters';

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

/**
 * The endpoint for a group, category and type (empty category or type: all of
 * them). Names map to ids; ids this node's list does not know still go to the
 * service, which may have added them (its 404 says when not: explain.ts, NOT_FOUND.signals).
 */
export function signalsPathFor(node: INode, group: string, category: string, type: string, itemIndex?: number): string {
	const ids = signalIds(group.trim(), category.trim(), type.trim());
	if (ids.group === '') throw new NodeOperationError(node, `Group is required: use one of ${SIGNAL_GROUPS.join(', ')}`, { itemIndex });
	if (ids.category === '') return fillPath(API_PATHS.signalsOfGroup, { group: ids.group });
	if (ids.type === '') return fillPath(API_PATHS.signalsOfCategory, { group: ids.group, category: ids.category });
	return fillPath(API_PATHS.signalsOfType, ids);
}

/** Which signals the parameters above select: the endpoint, and the query's direct and active filters. */
export interface SignalSelection {
	path: string;
	filters: { direct_only: boolean; active_only: boolean };
}

/** The parameters above, read and checked: Signal → Get Many per item, the Poll Trigger's New Signal once. */
export function readSignalSelection(node: INode, read: ParameterReader, itemIndex?: number): SignalSelection {
	const group = readString(node, read, 'group', 'Group', '', itemIndex);
	const category = readString(node, read, 'category', 'Category', '', itemIndex);
	const type = category === '' ? '' : readString(node, read, 'type', 'Type', '', itemIndex);
	return {
		path: signalsPathFor(node, group, category, type, itemIndex),
		filters: {
			direct_only: readBoolean(node, read, 'directOnly', 'Direct Only', true, itemIndex),
			active_only: readBoolean(node, read, 'activeOnly', 'Active Only', true, itemIndex),
		},
	};
}
