/**
 * A search expression as the mock matches it: the service's reading of `search` and `locations`
 * (contract/search-syntax.ts, shared with the nodes' syntax check), and the matching over a job's text.
 */
import type { SearchReading } from '../base/contract.mts';

/** A search or locations value as the service reads it (contract/search-syntax.ts, `readSearch`). */
export type Expression = SearchReading;

export function isEmpty(expression: Expression): boolean {
	return expression.alternatives.length === 0 && expression.exclude.length === 0;
}

/** `text` must already be lower-cased. */
export function matches(expression: Expression, text: string): boolean {
	for (const term of expression.exclude) if (text.includes(term)) return false;
	if (expression.alternatives.length === 0) return true;
	return expression.alternatives.some(
		(a) => a.include.every((t) => text.includes(t)) && !a.exclude.some((t) => text.includes(t)),
	);
}

/** Every term of the expression (included and excluded), as the matching reads them. */
export function termsOf(expression: Expression): string[] {
	return [...expression.exclude, ...expression.alternatives.flatMap((a) => [...a.include, ...a.exclude])];
}
