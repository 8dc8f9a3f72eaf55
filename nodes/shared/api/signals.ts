/** GET /signals/{group}[/{category}[/{type}]]: the signals of a group, category or type, by page. */
import type { IDataObject } from 'n8n-workflow';
import { pageNumberList } from '../pages/list-kinds';
import type { PagedEndpoint } from '../pages/page-walk';

/** `path` from signalsPathFor (signal-filters.ts); `perPage` signals a page from page `startPage`. */
export function signals(operation: string, path: string, filters: IDataObject, perPage: number, startPage = 1): PagedEndpoint<'signalsPage'> {
	return { request: { method: 'GET', on: 'api', path, idempotent: true, operation }, list: pageNumberList(perPage, filters, startPage) };
}
