/** Serializes a signals envelope to UTF-8; each signal's JSON is computed once (recordJson). */
import type { Pagination, Signal } from '../../../contract/schemas';
import { envelopeBytes } from './record-json';

export function signalsBytes(
	where: { group: string; category?: string; type?: string },
	pagination: Pagination,
	signals: readonly Signal[],
): Uint8Array<ArrayBuffer> {
	// Field order follows the spec's envelope table; category/type only on their endpoints.
	return envelopeBytes({ group: where.group, category: where.category, type: where.type, pagination }, 'signals', signals);
}
