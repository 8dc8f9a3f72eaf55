/** Selected Fields: a record cut to the chosen dotted paths, nested as in the record (a subset of Raw). */
import type { IDataObject } from 'n8n-workflow';

export function selectFields(record: IDataObject, paths: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const path of paths) {
		const parts = path.split('.');
		let from: unknown = record;
		for (const part of parts) from = typeof from === 'object' && from !== null ? (from as IDataObject)[part] : undefined;
		// A field the record lacks (deleted_at of a job that exists) is left out rather than set to null.
		if (from === undefined) continue;
		let into = out;
		for (const part of parts.slice(0, -1)) into = (into[part] ??= {}) as IDataObject;
		into[parts[parts.length - 1]] = from;
	}
	return out;
}
