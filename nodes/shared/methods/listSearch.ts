/** The Collection picker: the account's collections, filtered by what the user types. */
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { compareNames } from '../parameters';
import { serviceRequest } from '../transport/request';

export async function searchCollections(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const { data: collections } = await serviceRequest(this, { endpoint: 'collections', operation: 'Collection list' });
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: collections
			.map((c) => ({ name: String(c.name ?? c.collection_id), value: String(c.collection_id) }))
			.filter((c) => needle === '' || c.name.toLowerCase().includes(needle) || c.value.toLowerCase().includes(needle))
			// Sorted by name, as the editor's other lists are (the service lists them in its own order).
			.sort((a, b) => compareNames(a.name, b.name) || a.value.localeCompare(b.value)),
	};
}
