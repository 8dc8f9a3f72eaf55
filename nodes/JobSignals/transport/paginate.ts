/**
 * The API's three pagination kinds, one loop: signals use page/per_page,
 * job search a numeric offset, jobs of a source and sources of a collection a
 * string cursor. The loop stops as soon as `limit` items are in hand.
 */
import type { IDataObject } from 'n8n-workflow';
import { serviceRequest, type ServiceContext, type ServiceRequest } from './request';

export interface Pager {
	/** The first request's query. */
	first: IDataObject;
	/** The items of one page. */
	items(body: IDataObject): IDataObject[];
	/** The next page's query, or undefined after the last page. */
	next(body: IDataObject, query: IDataObject, items: IDataObject[]): IDataObject | undefined;
}

export async function collectPages(
	this: ServiceContext,
	request: Omit<ServiceRequest, 'qs'>,
	pager: Pager,
	limit?: number,
): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	let query: IDataObject | undefined = pager.first;
	while (query) {
		const body: IDataObject = await serviceRequest.call(this, { ...request, qs: query });
		const items = pager.items(body);
		out.push(...items);
		if (limit !== undefined && out.length >= limit) return out.slice(0, limit);
		query = items.length === 0 ? undefined : pager.next(body, query, items);
	}
	return out;
}

const arrayOf = (value: unknown): IDataObject[] => (Array.isArray(value) ? (value as IDataObject[]) : []);

/** Signals: ask for as many per page as the limit needs (at most maxPerPage), follow has_next. */
export function pageNumberPager(perPage: number, filters: IDataObject): Pager {
	return {
		first: { ...filters, page: 1, per_page: perPage },
		items: (body) => arrayOf(body.signals),
		next: (body, query) =>
			(body.pagination as IDataObject | undefined)?.has_next === true ? { ...query, page: Number(query.page) + 1 } : undefined,
	};
}

/** Job search: offset pages; the total in metrics.count_jobs ends the walk without an extra empty call. */
export function offsetPager(filters: IDataObject): Pager {
	return {
		first: { ...filters, offset: 0 },
		items: (body) => arrayOf(body.data),
		next: (body, query, items) => {
			const offset = Number(query.offset) + items.length;
			const total = Number((body.metrics as IDataObject | undefined)?.count_jobs);
			return Number.isFinite(total) && offset >= total ? undefined : { ...query, offset };
		},
	};
}

/** Cursor pages: the response's cursor field (absent on the final page) goes back as a query parameter of the same name. */
export function cursorPager(cursorName: string): Pager {
	return {
		first: {},
		items: (body) => arrayOf(body.data),
		next: (body, query) => {
			const cursor = body[cursorName];
			return typeof cursor === 'string' && cursor !== '' ? { ...query, [cursorName]: cursor } : undefined;
		},
	};
}
