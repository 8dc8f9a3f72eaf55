/** Serializes a signals envelope to JSON text; each signal's JSON is computed once (recordJson). */
import type { Pagination, Signal } from '../../../contract/schemas';
import { envelopeJson } from './record-json';

export function signalsJson(
	where: { group: string; category?: string; type?: string },
	pagination: Pagination,
	signals: readonly Signal[],
): string {
	// Field order follows the spec's envelope table; category/type only on their endpoints.
	return envelopeJson({ group: where.group, category: where.category, type: where.type, pagination }, 'signals', signals);
}
