/** The Collection picker: the account's collections, filtered by what the user types. */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { API_PATHS } from '../contract';
import { serviceRequest } from '../transport/request';

export async function searchCollections(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const body = await serviceRequest.call(this, {
		method: 'GET',
		on: 'api',
		path: API_PATHS.collections,
		idempotent: true,
		answer: 'collections',
		operation: 'Collection list',
	});
	const needle = (filter ?? '').trim().toLowerCase();
	const collections = body.data as IDataObject[];
	return {
		results: collections
			.map((c) => ({ name: String(c.name ?? c.collection_id), value: String(c.collection_id) }))
			.filter((c) => needle === '' || c.name.toLowerCase().includes(needle) || c.value.toLowerCase().includes(needle))
			// Sorted by name, as the editor's other lists are (the service lists them in its own order).
			.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.value.localeCompare(b.value)),
	};
}
