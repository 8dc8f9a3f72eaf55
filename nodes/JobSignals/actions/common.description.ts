/** Parameters several operations share, written once. */
import type { INodeProperties } from 'n8n-workflow';
import type { RecordKind } from '../../shared/contract';
import { ACTION_OUTPUT_VERSION } from '../../shared/output/action';
import { outputProperties } from '../../shared/output/properties';

export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/**
 * Simplify (docs/action-node.md, "Simplify"): node version 2 only, on by default; version 1 nodes, saved before it existed, stay
 * raw; version 3 has Output instead (outputFor).
 */
export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simple',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	displayOptions: { show: { '@version': [2] } },
};

/** Output and Fields (node version 3 on) for an operation returning records of this kind. */
export const outputFor = (kind: RecordKind): INodeProperties[] => outputProperties([kind], { '@version': [{ _cnd: { gte: ACTION_OUTPUT_VERSION } }] });
