// The Selected Fields lists (contract/record-fields.ts, plain data the nodes bundle) against the zod schemas of the same records.
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { RECORD_FIELDS } from '../../contract/record-fields';
import { collectionSchema, jobSchema, signalSchema, sourceSchema, webhookEventSchema } from '../../contract/schemas';

/** A schema's fields as dotted paths: a nested object's fields each, a list or a value as one field. */
function paths(schema: z.ZodObject, prefix = ''): string[] {
	return Object.entries(schema.shape).flatMap(([name, field]) => {
		const inner = field instanceof z.ZodOptional ? field.unwrap() : field;
		return inner instanceof z.ZodObject ? paths(inner, `${prefix}${name}.`) : [`${prefix}${name}`];
	});
}

describe('record fields', () => {
	it('list every field of each record schema, nested objects by dotted path', () => {
		expect([...RECORD_FIELDS.signal].sort()).toEqual(paths(signalSchema).sort());
		expect(RECORD_FIELDS.signal).toContain('info.type');
		expect([...RECORD_FIELDS.job].sort()).toEqual(paths(jobSchema).sort());
		expect([...RECORD_FIELDS.source].sort()).toEqual(paths(sourceSchema).sort());
		expect([...RECORD_FIELDS.collection].sort()).toEqual(paths(collectionSchema).sort());
		expect([...RECORD_FIELDS.webhookEvent].sort()).toEqual(paths(webhookEventSchema).filter((p) => p !== 'event_data').sort());
	});
});
