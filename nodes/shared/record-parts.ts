/** The parts that version 2's Simplify (`output/simplify-v2.ts`) and version 3's Simplified (`output/simplified.ts`) read alike. */
import type { IDataObject } from 'n8n-workflow';

/** The latest time a Date holds (8.64e15 ms), in seconds: past it toISOString throws. */
const MAX_DATE_SECONDS = 8.64e12;

/** Epoch seconds as ISO 8601; absent, or no time a date can hold, stays absent. */
export const iso = (seconds: unknown) => (typeof seconds === 'number' && Math.abs(seconds) <= MAX_DATE_SECONDS ? new Date(seconds * 1000).toISOString() : undefined);

/**
 * A value as text, for a comparison or a message, that cannot throw: String() of a sender's object throws when
 * it has a `toString` or `valueOf` key that is not a function (`{"toString": 1}`), so an object is its JSON.
 */
export const textOf = (value: unknown): string => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

/** A sender's value in a message: as text, cut to `max` characters (a body may hold a megabyte where a word is expected). */
export function shownValue(value: unknown, max = 100): string {
	const text = textOf(value);
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Who a record is about: the company's name (a source's `name`, anything else's `source_name`) and its domain. */
export const companyOf = (record: IDataObject, nameField: 'name' | 'source_name') => ({ company: record[nameField], domain: record.url_source });

/** A signal's evidence, the list joined by line breaks (none is empty; a record that has no list gives its value as text). */
export function evidenceOf(signal: IDataObject): string {
	const list = signal.evidence_list ?? [];
	return Array.isArray(list) ? list.map(textOf).join('\n') : textOf(list);
}

/** Who a source (a company) is: its id, name, domain, description, place and industries. */
export const sourceProfileOf = (source: IDataObject) => ({
	source_id: source.source_id,
	...companyOf(source, 'name'),
	description: source.description,
	location: source.location,
	industries: source.industry_tags,
});
