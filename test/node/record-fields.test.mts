// The Selected Fields lists (contract/record-fields.ts, plain data the nodes bundle) against the zod schemas of the same records.
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { RECORD_FIELDS, RECORD_ID_FIELDS } from '../../contract/record-fields';
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

	it('name each record kind\'s id once, a field of that kind (the one Selected Fields starts with)', () => {
		expect(RECORD_ID_FIELDS).toEqual({ signal: 'signal_id', job: 'job_id', source: 'source_id', collection: 'collection_id', webhookEvent: 'webhook_event_id' });
		expect(Object.keys(RECORD_ID_FIELDS).sort()).toEqual(Object.keys(RECORD_FIELDS).sort());
		for (const [kind, id] of Object.entries(RECORD_ID_FIELDS)) expect(RECORD_FIELDS[kind as keyof typeof RECORD_FIELDS], kind).toContain(id);
	});
});
