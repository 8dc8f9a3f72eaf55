import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopeChunks, recordBytes } from '../src/handlers/record-json.mts';

const decode = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);
/** The chunks as one text; each chunk must be valid UTF-8 on its own (a record is never cut). */
const text = (chunks: Uint8Array[]) => chunks.map(decode).join('');
const envelopeText = (...args: Parameters<typeof envelopeChunks>) => text(envelopeChunks(...args));

describe('envelopeChunks', () => {
	it('is the UTF-8 of the envelope JSON.stringify would make, whatever the records hold (any Unicode, none, many)', () => {
		const record = fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 6 }), fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.integer(), fc.constant(null)), { maxKeys: 4 });
		// Names that are not array indexes: an object puts those first, so the expected text would be in another order.
		const name = fc.string({ unit: 'grapheme-ascii', maxLength: 5 }).map((s) => `f${s}`);
		const fields = fc.dictionary(name, fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.integer()), { maxKeys: 3 });
		fc.assert(
			fc.property(fields, fc.array(record, { maxLength: 30 }), fields, (before, records, after) => {
				fc.pre(Object.keys(after).every((key) => !(key in before)));
				// Twice: the second time from the records' cached bytes.
				for (let time = 0; time < 2; time++) expect(envelopeText(before, 'rows', records, after)).toBe(JSON.stringify({ ...before, rows: records, ...after }));
				for (const record of records) expect(decode(recordBytes(record))).toBe(JSON.stringify(record));
			}),
			{ numRuns: 300 },
		);
	});

	it('leaves out fields that are undefined, as JSON.stringify does, and writes an empty list as []', () => {
		expect(envelopeText({ group: 'problems', category: undefined }, 'signals', [])).toBe('{"group":"problems","signals":[]}');
		expect(envelopeText({}, 'data', [{ a: 'Zürich 🏙' }], { cursor_job_id: undefined, metrics: { count_jobs: 1 } })).toBe(
			'{"data":[{"a":"Zürich 🏙"}],"metrics":{"count_jobs":1}}',
		);
	});
});
