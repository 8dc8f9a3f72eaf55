/** Records shaped as the Output parameter asks: the one place the three nodes shape what they return. */
import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';
import type { RecordKind } from '../contract';
import type { OutputMode } from './properties';
import { selectFields } from './select';
import { SIMPLIFY } from './simplified';

export interface OutputChoice {
	mode: OutputMode;
	fields: string[];
}

/** The Output and Fields values, checked: Selected Fields with no field chosen is an error that says what to do. */
export function readOutputChoice(node: INode, read: (name: string, fallback: unknown) => unknown, itemIndex?: number): OutputChoice {
	const mode = read('output', 'simplified') as OutputMode;
	if (mode !== 'selected') return { mode, fields: [] };
	const value = read('fields', []);
	const fields = (Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []).map((field) => String(field).trim()).filter((field) => field !== '');
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
	return SIMPLIFY[kind](record);
}
