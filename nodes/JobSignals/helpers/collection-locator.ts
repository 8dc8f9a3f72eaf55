/** The Collection parameter: picked from the account's collections, or given by ID. */
import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

export const collectionLocator: INodeProperties = {
	displayName: 'Collection',
	name: 'collection',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'A collection of the account (collections are managed in the service\'s web application)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchCollections', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. col_demo_1',
		},
	],
};

export function readCollectionId(context: IExecuteFunctions, itemIndex: number): string {
	const value = context.getNodeParameter('collection', itemIndex, '', { extractValue: true });
	const id = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (id === '') throw new NodeOperationError(context.getNode(), 'Collection is required: pick one from the list or give its ID', { itemIndex });
	return id;
}
