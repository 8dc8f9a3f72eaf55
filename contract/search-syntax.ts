/**
 * How the service reads a job search's `search` and `locations` (the spec shows the operators, not every edge;
 * the rest is this project's choice, docs/api-assumptions.md). The mock matches with this reading and the nodes
 * check and describe a search with it, so the two cannot drift apart:
 *  - Comma-separated entries. An entry that is one `-word` (no `|`, no `+`) leaves that word out of every result;
 *    every other entry is an alternative (OR).
 *  - Inside an entry, `|` separates alternatives (OR).
 *  - Inside an alternative, `+`-joined words must all appear (AND), and a word prefixed with `-` (at the start,
 *    or after `+` or a space) must not. A `-` inside a word (`front-end`) is part of the word.
 *  - Words match case-insensitively anywhere in the text; runs of spaces count as one; a blank value matches all.
 * In a URL query a literal `+` must be sent as %2B (URLSearchParams does this).
 */
export interface SearchAlternative {
	include: string[];
	exclude: string[];
}

export interface SearchReading {
	alternatives: SearchAlternative[];
	/** Words no result may contain, whichever alternative it matches. */
	exclude: string[];
}

export function readSearch(value: string): SearchReading {
	const reading: SearchReading = { alternatives: [], exclude: [] };
	for (const raw of value.split(',')) {
		const entry = raw.trim();
		if (entry === '') continue;
		if (entry.startsWith('-') && !entry.includes('|') && !entry.slice(1).includes('+')) {
			const word = normalizeWord(entry.slice(1));
			if (word) reading.exclude.push(word);
			continue;
		}
		for (const text of entry.split('|')) {
			const alternative = readAlternative(text);
			if (alternative.include.length > 0 || alternative.exclude.length > 0) reading.alternatives.push(alternative);
		}
	}
	return reading;
}

function readAlternative(text: string): SearchAlternative {
	const alternative: SearchAlternative = { include: [], exclude: [] };
	// Split before every `+`, and before a `-` that starts the text or follows a space.
	for (const token of text.split(/(?=\+)|(?:^|\s)(?=-)/)) {
		// `+-word` is an exclusion joined by `+`: drop the `+` before looking for the `-`.
		const term = token.trim().replace(/^\+\s*/, '');
		const excluded = term.startsWith('-');
		const word = normalizeWord(excluded ? term.slice(1) : term);
		if (word) (excluded ? alternative.exclude : alternative.include).push(word);
	}
	return alternative;
}

const normalizeWord = (word: string) => word.trim().replace(/\s+/g, ' ').toLowerCase();
