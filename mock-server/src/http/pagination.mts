/** The signals pagination object (spec), exact also for an empty result and a page past the end. */
import type { Pagination } from '../base/contract.mts';

export function paginate<T>(all: readonly T[], page: number, perPage: number): { pagination: Pagination; items: T[] } {
	const total = all.length;
	const countPages = Math.ceil(total / perPage);
	const start = (page - 1) * perPage;
	const items = all.slice(start, start + perPage);
	return {
		items,
		pagination: {
			page,
			per_page: perPage,
			count_pages: countPages,
			count_signals: total,
			// 1-based; both 0 when the page holds nothing.
			start_index: items.length > 0 ? start + 1 : 0,
			end_index: items.length > 0 ? start + items.length : 0,
			has_next: page < countPages,
			has_prev: page > 1,
		},
	};
}
