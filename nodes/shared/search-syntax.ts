/**
 * The service's search syntax (spec, "Search syntax"; docs/action-node.md, "Search syntax"), checked before a search is sent:
 * `,` separates entries (alternatives; an entry that is one `-word` leaves that word out of every result), `|`
 * separates alternatives inside an entry, `+` joins words that must all appear, `-word` leaves a word out. Words
 * match anywhere in the text, case aside; a phrase with spaces matches as written.
 *
 * What people write in other search boxes is not this syntax, and the service does not say so: it looks for the
 * characters themselves and answers nothing. So AND/OR/NOT between words, quotes, parentheses that group, and empty
 * parts (a,,b  a|  +  a lone -) are errors that say how to write it; what can be meant literally (a place called
 * OR, a title with "(m/w/d)", a *) is a hint that shows how the service reads it.
 */
import { NodeOperationError, type INode } from 'n8n-workflow';
import { readSearch } from './contract';

export interface SyntaxFinding {
	message: string;
	description: string;
}

export interface SyntaxCheck {
	errors: SyntaxFinding[];
	hints: SyntaxFinding[];
}

const OPERATOR = /(^|[\s+|,(])(AND|OR|NOT)(?=$|[\s+|,)])/;
const OPERATORS = /\b(AND|OR|NOT)\b/g;
const QUOTES = /["“”„]/;

/** The reading in words, e.g. `"python" and "senior", or "golang"; never "intern"`. */
export function describeReading(value: string): string {
	const { alternatives, exclude } = readSearch(value);
	const quoted = (words: string[]) => words.map((word) => `"${word}"`);
	const parts = alternatives.map((a) => [...quoted(a.include), ...quoted(a.exclude).map((w) => `not ${w}`)].join(' and '));
	const any = parts.length === 0 ? 'anything' : parts.join(', or ');
	return exclude.length === 0 ? any : `${any}; never ${quoted(exclude).join(' or ')}`;
}

/**
 * A rewrite of AND/OR/NOT between words into the service's syntax, when the value is only words and those
 * operators (no parentheses, which cannot be rewritten word for word): `a AND b OR NOT c` → `+a+b,-c`.
 */
export function rewriteOperators(value: string): string | undefined {
	const text = value.replace(/["“”„]/g, '').trim();
	if (/[(),|+]/.test(text)) return undefined;
	const entries = text.split(/\s+OR\s+/).map((alternative) => {
		const words = alternative.split(/\s+AND\s+/).map((word) => word.trim().replace(/^NOT\s+/, '-'));
		if (words.some((word) => word === '' || word === '-' || OPERATORS.test(word))) return undefined;
		OPERATORS.lastIndex = 0;
		return words.length === 1 ? words[0] : words.map((word) => `+${word}`).join('');
	});
	OPERATORS.lastIndex = 0;
	return entries.includes(undefined) ? undefined : entries.join(',');
}

const SYNTAX = 'The service\'s syntax: , between alternatives (python,golang), + before words that must all appear (+python+senior), - before a word to leave out (-intern), | between alternatives inside an entry.';

export function checkSearchSyntax(label: string, value: string): SyntaxCheck {
	const check: SyntaxCheck = { errors: [], hints: [] };
	const text = value.trim();
	if (text === '') return check;
	const error = (message: string, description: string) => check.errors.push({ message: `${label}: ${message}`, description: `${description} ${SYNTAX}` });
	const hint = (message: string) => check.hints.push({ message: `${label}: ${message} The service reads "${text}" as: ${describeReading(text)}.`, description: SYNTAX });

	if (QUOTES.test(text)) {
		error('quotes are not part of the service\'s syntax', 'The service would look for the quote characters themselves and find nothing. Leave them out: a phrase matches as written (senior engineer).');
	}
	const operatorAlone = text.split(/[,|]/).some((part) => /^[+-]?\s*(AND|OR|NOT)$/.test(part.trim()));
	if (OPERATOR.test(text) && !onlyAlone(text)) {
		const rewrite = rewriteOperators(text);
		error(
			'AND, OR and NOT are not operators for the service',
			`It reads them as words to find, so the search matches nothing or the wrong jobs.${rewrite ? ` Write ${rewrite}.` : ''}`,
		);
	} else if (operatorAlone) {
		hint('AND, OR or NOT on its own is read as a word (OR as in Oregon, matched anywhere in the text, so "or" also matches "work"); for alternatives, separate them with commas.');
	}
	const open = (text.match(/\(/g) ?? []).length;
	const close = (text.match(/\)/g) ?? []).length;
	const grouping = /\([^()]*[,|+]|[,|+][^()]*\)/.test(text) || open !== close;
	if ((open > 0 || close > 0) && grouping) {
		error('parentheses do not group in the service\'s syntax', 'Each alternative is written out whole: (python,golang)+senior is +python+senior,+golang+senior.');
	} else if (open > 0) {
		hint('parentheses are read as characters of the text, e.g. a title with (m/w/d).');
	}
	for (const [index, entry] of text.split(',').entries()) {
		if (entry.trim() === '') {
			error('an empty entry', `Entry ${index + 1} between the commas is empty (a,,b, or a comma at the start or end): remove the extra comma, or write the word that was meant.`);
			break;
		}
	}
	if (text.split(',').some((entry) => entry.trim() !== '' && entry.split('|').some((alternative) => alternative.trim() === ''))) {
		error('an empty alternative', 'A | has nothing on one side (a||b, a|): remove it, or write the word that was meant.');
	}
	if (/\+\s*(?=$|[+,|])/.test(text)) error('a + with no word after it', 'Every + must be followed by a word that must appear (+python+senior).');
	if (/(^|[\s+,|])-\s*(?=$|[+,|])/.test(text)) error('a - with no word after it', 'A - must be followed by the word to leave out (-intern).');
	if (text.includes('*')) hint('* is not a wildcard: the service looks for the * itself. Words already match inside longer words (engineer matches engineering).');
	return check;
}

/** Whether every AND/OR/NOT in the text stands alone as a whole alternative (then it may be a word, e.g. the state OR). */
function onlyAlone(text: string): boolean {
	return text.split(/[,|]/).every((part) => !OPERATOR.test(part) || /^[+-]?\s*(AND|OR|NOT)$/.test(part.trim()));
}

/** Throws the first error, as the action node's and the Poll Trigger's error; the hints are the caller's to show. */
export function assertSearchSyntax(node: INode, label: string, value: string, itemIndex?: number): SyntaxFinding[] {
	const { errors, hints } = checkSearchSyntax(label, value);
	if (errors.length > 0) {
		const [first, ...more] = errors;
		const also = more.length === 0 ? '' : ` Also: ${more.map((e) => e.message.replace(`${label}: `, '')).join('; ')}.`;
		throw new NodeOperationError(node, first.message, { itemIndex, description: `${first.description}${also}` });
	}
	return hints;
}

/** The hints of a search query's Search and Locations (its errors were thrown when the query was made). */
export function searchQueryHints(filters: { search?: unknown; locations?: unknown }): SyntaxFinding[] {
	return [
		...checkSearchSyntax('Search', String(filters.search ?? '')).hints,
		...checkSearchSyntax('Locations', String(filters.locations ?? '')).hints,
	];
}

/** What an empty answer to a valid search means, with how the service read each field. */
export function nothingMatched(filters: { search?: unknown; locations?: unknown }): SyntaxFinding {
	const read = [
		filters.search === undefined ? '' : ` Search read as ${describeReading(String(filters.search))}.`,
		filters.locations === undefined ? '' : ` Locations read as ${describeReading(String(filters.locations))}.`,
	].join('');
	return {
		message: `The search is valid and matched no job.${read}`,
		description: 'Nothing is wrong with the syntax: no job of the account matches right now. Widen it (fewer + words, more alternatives separated by commas, fewer filters), or try again after the service\'s next scrape.',
	};
}
