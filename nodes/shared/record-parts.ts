/** The parts that version 2's Simplify (`simplify.ts`) and version 3's Simplified (`output/simplified.ts`) read alike. */
import type { IDataObject } from 'n8n-workflow';

/** Epoch seconds as ISO 8601; absent stays absent. */
export const iso = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : undefined);

/** Who a record is about: the company's name (a source's `name`, anything else's `source_name`) and its domain. */
export const companyOf = (record: IDataObject, nameField: 'name' | 'source_name') => ({ company: record[nameField], domain: record.url_source });

/** A signal's evidence, the list joined by line breaks (none is empty). */
export const evidenceOf = (signal: IDataObject) => ((signal.evidence_list ?? []) as string[]).join('\n');

/** Who a source (a company) is: its id, name, domain, description, place and industries. */
export const sourceProfileOf = (source: IDataObject) => ({
	source_id: source.source_id,
	...companyOf(source, 'name'),
	description: source.description,
	location: source.location,
	industries: source.industry_tags,
});
