import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopeBytes } from '../src/handlers/record-json';

const decode = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

describe('envelopeBytes', () => {
	it('is the UTF-8 of the envelope JSON.stringify would make, whatever the records hold (any Unicode, none, many)', () => {
		const record = fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 6 }), fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.integer(), fc.constant(null)), { maxKeys: 4 });
		// Names that are not array indexes: an object puts those first, so the expected text would be in another order.
		const name = fc.string({ unit: 'grapheme-ascii', maxLength: 5 }).map((s) => `f${s}`);
		const fields = fc.dictionary(name, fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.integer()), { maxKeys: 3 });
		fc.assert(
			fc.property(fields, fc.array(record, { maxLength: 30 }), fields, (before, records, after) => {
				fc.pre(Object.keys(after).every((key) => !(key in before)));
				const bytes = envelopeBytes(before, 'rows', records, after);
				expect(JSON.parse(decode(bytes))).toEqual({ ...before, rows: records, ...after });
				expect(decode(bytes)).toBe(JSON.stringify({ ...before, rows: records, ...after }));
			}),
			{ numRuns: 300 },
		);
	});

	it('leaves out fields that are undefined, as JSON.stringify does, and writes an empty list as []', () => {
		expect(decode(envelopeBytes({ group: 'problems', category: undefined }, 'signals', []))).toBe('{"group":"problems","signals":[]}');
		expect(decode(envelopeBytes({}, 'data', [{ a: 'Zürich 🏙' }], { cursor_job_id: undefined, metrics: { count_jobs: 1 } }))).toBe(
			'{"data":[{"a":"Zürich 🏙"}],"metrics":{"count_jobs":1}}',
		);
	});
});
