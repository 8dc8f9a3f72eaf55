/**
 * The UTF-8 JSON of a stored record, computed once. Records are never changed
 * once stored (an update stores a new object), so a page of them is a list of
 * their bytes, sent one after another: building a page allocates no copy of its
 * records. (Pages built as one buffer each, ~1 MB for 1,000 signals, were enough
 * garbage outside V8's heap to bring a full collection into every third or
 * fourth Return All of 20,000 signals, ~0.06 s each; docs/benchmarks.md.)
 */
import { utf8 } from '../http/respond.mts';

/** Each record's JSON after a comma: a record in a list is `,{…}`, the first one is the same bytes from the second on. */
const serialized = new WeakMap<object, Uint8Array<ArrayBuffer>>();

function afterComma(record: object): Uint8Array<ArrayBuffer> {
	let bytes = serialized.get(record);
	if (bytes === undefined) {
		bytes = utf8.encode(`,${JSON.stringify(record)}`);
		serialized.set(record, bytes);
	}
	return bytes;
}

/** The record's JSON as UTF-8 (a view of the cached bytes, not a copy). */
export function recordBytes(record: object): Uint8Array<ArrayBuffer> {
	return afterComma(record).subarray(1);
}

/** An envelope as UTF-8 chunks, in order: the fields of `before`, then `"<name>": [records]`, then the fields of `after`. */
export function envelopeChunks(before: object, name: string, records: readonly object[], after: object = {}): Uint8Array<ArrayBuffer>[] {
	const fields = (object: object) => JSON.stringify(object).slice(1, -1);
	const head = `{${[fields(before), `"${name}":[`].filter((part) => part !== '').join(',')}`;
	const tailFields = fields(after);
	const chunks = [utf8.encode(head)];
	for (let i = 0; i < records.length; i++) chunks.push(i === 0 ? recordBytes(records[i]) : afterComma(records[i]));
	chunks.push(utf8.encode(tailFields === '' ? ']}' : `],${tailFields}}`));
	return chunks;
}
