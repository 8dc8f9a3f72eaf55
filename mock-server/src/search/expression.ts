/**
 * The spec's search syntax, as the mock reads it (README, "Assumptions"):
 *  - Comma-separated entries. An entry starting with `-` is an exclusion that
 *    applies to every result; every other entry is an alternative (OR).
 *  - Inside an entry, `|` separates alternatives (OR).
 *  - Inside an alternative, `+`-joined terms must all match (AND), and a term
 *    prefixed with `-` (at the start or after `+` or a space) must not match.
 *    A `-` inside a word (`front-end`) is part of the word.
 *  - Terms match case-insensitively as substrings; a blank expression matches all.
 * Note: in a URL query a literal `+` must be sent as %2B (URLSearchParams does this).
 */
export interface Alternative {
	include: string[];
	exclude: string[];
}

export interface Expression {
	alternatives: Alternative[];
	exclude: string[];
}

export function parseExpression(input: string): Expression {
	const expression: Expression = { alternatives: [], exclude: [] };
	for (const rawEntry of input.split(',')) {
		const entry = rawEntry.trim();
		if (entry === '') continue;
		if (entry.startsWith('-') && !entry.includes('|') && !entry.slice(1).includes('+')) {
			const term = normalize(entry.slice(1));
			if (term) expression.exclude.push(term);
			continue;
		}
		for (const rawAlternative of entry.split('|')) {
			const alternative = parseAlternative(rawAlternative);
			if (alternative.include.length > 0 || alternative.exclude.length > 0) expression.alternatives.push(alternative);
		}
	}
	return expression;
}

function parseAlternative(text: string): Alternative {
	const alternative: Alternative = { include: [], exclude: [] };
	// Split before every `+`, and before a `-` that starts the text or follows a space.
	for (const token of text.split(/(?=\+)|(?:^|\s)(?=-)/)) {
		// `+-term` is an exclusion joined by `+`: drop the `+` before looking for the `-`.
		const trimmed = token.trim().replace(/^\+\s*/, '');
		if (trimmed.startsWith('-')) {
			const term = normalize(trimmed.slice(1));
			if (term) alternative.exclude.push(term);
		} else {
			const term = normalize(trimmed);
			if (term) alternative.include.push(term);
		}
	}
	return alternative;
}

function normalize(term: string): string {
	return term.trim().replace(/\s+/g, ' ').toLowerCase();
}

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
