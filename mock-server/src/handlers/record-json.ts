/**
 * JSON text of a stored record, computed once. Records are never changed once
 * stored (an update stores a new object), so a page of them is a string join
 * instead of a JSON.stringify of every record on every request.
 */
const serialized = new WeakMap<object, string>();

export function recordJson(record: object): string {
	let json = serialized.get(record);
	if (json === undefined) {
		json = JSON.stringify(record);
		serialized.set(record, json);
	}
	return json;
}

/** An envelope's JSON text: the fields of `before`, then `"<name>": [records]`, then the fields of `after`. */
export function envelopeJson(before: object, name: string, records: readonly object[], after: object = {}): string {
	const fields = (object: object) => JSON.stringify(object).slice(1, -1);
	const parts = [fields(before), `"${name}":[${records.map(recordJson).join(',')}]`, fields(after)];
	return `{${parts.filter((part) => part !== '').join(',')}}`;
}
