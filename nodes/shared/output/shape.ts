/** Records shaped as the Output parameter asks: the one place the three nodes shape what they return. */
import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';
import type { RecordKind } from '../contract';
import type { OutputMode } from './properties';
import { SIMPLIFIED_SHAPES } from './simplified';
import { listEntries } from '../parameters';

export interface OutputChoice {
	mode: OutputMode;
	fields: string[];
}

/** The Output and Fields values, checked: Selected Fields with no field chosen is an error that says what to do. */
export function readOutputChoice(node: INode, read: (name: string, fallback: unknown) => unknown, itemIndex?: number): OutputChoice {
	const mode = read('output', 'simplified') as OutputMode;
	if (mode !== 'selected') return { mode, fields: [] };
	const value = read('fields', []);
	const fields = listEntries(value);
	if (fields.length === 0) {
		throw new NodeOperationError(node, 'Output is Selected Fields, but no field is chosen', {
			itemIndex,
			description: 'Choose at least one field in Fields, or set Output to Simplified or Raw.',
		});
	}
	return { mode, fields };
}

export function shapeRecord(record: IDataObject, kind: RecordKind, choice: OutputChoice): IDataObject {
	if (choice.mode === 'raw') return record;
	if (choice.mode === 'selected') return selectFields(record, choice.fields);
	return SIMPLIFIED_SHAPES[kind](record);
}

/** Selected Fields: a record cut to the chosen dotted paths, nested as in the record (a subset of Raw). */
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
