/** A signals envelope as UTF-8 chunks; each signal's JSON is computed once (record-json.ts). */
import type { Pagination, Signal } from '../../../contract/schemas';
import { envelopeChunks } from './record-json.mts';

export function signalsChunks(
	where: { group: string; category?: string; type?: string },
	pagination: Pagination,
	signals: readonly Signal[],
): Uint8Array<ArrayBuffer>[] {
	// Field order follows the spec's envelope table; category/type only on their endpoints.
	return envelopeChunks({ group: where.group, category: where.category, type: where.type, pagination }, 'signals', signals);
}
