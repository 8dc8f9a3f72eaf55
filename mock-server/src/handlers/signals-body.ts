/**
 * Serializes a signals envelope to JSON text. Signals never change once created, so each
 * one's JSON is computed once and reused: a 1000-signal page is a string join.
 */
import type { Pagination, Signal } from '../contract/schemas';

const serialized = new WeakMap<Signal, string>();

function signalJson(signal: Signal): string {
	let json = serialized.get(signal);
	if (json === undefined) {
		json = JSON.stringify(signal);
		serialized.set(signal, json);
	}
	return json;
}

export function signalsJson(
	where: { group: string; category?: string; type?: string },
	pagination: Pagination,
	signals: readonly Signal[],
): string {
	// Field order follows the spec's envelope table; category/type only on their endpoints.
	const head = JSON.stringify({ group: where.group, category: where.category, type: where.type, pagination });
	return `${head.slice(0, -1)},"signals":[${signals.map(signalJson).join(',')}]}`;
}
