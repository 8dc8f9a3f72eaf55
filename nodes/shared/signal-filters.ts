/** Which signals: the parameters and the endpoint they name, shared by Signal → Get Many and the Poll Trigger's New Signal. */
import { NodeOperationError, type IDataObject, type INode, type INodeProperties } from 'n8n-workflow';
import { SIGNAL_GROUPS, signalIds } from './contract';
import { target, type Target } from './transport/answers';
import { readBoolean, readString, type ParameterReader } from './parameters';
import { shownValue } from './record-parts';

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

/** Severity and match levels (signal_severity, signal_match: 1–3), as the Minimum Severity and Minimum Match options offer them. */
export const SIGNAL_LEVELS = [
	{ name: '1 (Any)', value: 1 },
	{ name: '2', value: 2 },
	{ name: '3 (Highest)', value: 3 },
];

/** Why a signal is below the minimum severity or match, or undefined when it is not. */
export function belowMinimum(signal: IDataObject, minSeverity: number, minMatch: number): string | undefined {
	// A level that is an object (a webhook sender's) is no level; Number() of one could throw (record-parts.ts, textOf).
	const level = (value: unknown) => (typeof value === 'object' && value !== null ? NaN : Number(value));
	if (!(level(signal.signal_severity) >= minSeverity)) return `signal severity ${shownValue(signal.signal_severity)} below the minimum ${minSeverity}`;
	if (!(level(signal.signal_match) >= minMatch)) return `signal match ${shownValue(signal.signal_match)} below the minimum ${minMatch}`;
	return undefined;
}

/**
 * The endpoint for a group, category and type (empty category or type: all of
 * them). Names map to ids; ids this node's list does not know still go to the
 * service, which may have added them (its 404 says when not: contract/endpoints.ts, the signals rows' notFound).
 */
export type SignalsTarget = Target<'signalsOfGroup' | 'signalsOfCategory' | 'signalsOfType'>;

export function signalsTarget(node: INode, group: string, category: string, type: string, itemIndex?: number): SignalsTarget {
	const ids = signalIds(group.trim(), category.trim(), type.trim());
	if (ids.group === '') throw new NodeOperationError(node, `Group is required: use one of ${SIGNAL_GROUPS.join(', ')}`, { itemIndex });
	if (ids.category === '') return target('signalsOfGroup', { group: ids.group });
	if (ids.type === '') return target('signalsOfCategory', { group: ids.group, category: ids.category });
	return target('signalsOfType', ids);
}

/** Which signals the parameters above select: the endpoint, and the query's direct and active filters. */
export interface SignalSelection {
	target: SignalsTarget;
	filters: { direct_only: boolean; active_only: boolean };
}

/** The parameters above, read and checked: Signal → Get Many per item, the Poll Trigger's New Signal once. */
export function readSignalSelection(node: INode, read: ParameterReader, itemIndex?: number): SignalSelection {
	const group = readString(node, read, 'group', 'Group', '', itemIndex);
	const category = readString(node, read, 'category', 'Category', '', itemIndex);
	const type = category === '' ? '' : readString(node, read, 'type', 'Type', '', itemIndex);
	return {
		target: signalsTarget(node, group, category, type, itemIndex),
		filters: {
			direct_only: readBoolean(node, read, 'directOnly', 'Direct Only', true, itemIndex),
			active_only: readBoolean(node, read, 'activeOnly', 'Active Only', true, itemIndex),
		},
	};
}
