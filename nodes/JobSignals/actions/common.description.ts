/** Parameters several operations share, written once. */
import type { INodeProperties } from 'n8n-workflow';

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
 * Simplify (README, "Simplify"): new in node version 2, on by default as n8n
 * asks of new nodes; version 1 nodes, saved before it existed, stay raw.
 */
export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simple',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
};
