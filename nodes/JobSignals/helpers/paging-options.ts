/**
 * The Options collection of list operations (docs/action-node.md, "Options"): Include
 * Totals and Start At, read once per item; the totals item they add.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';
import type { CollectSummary } from '../../shared/pages/collect';

const includeTotalsOption: INodeProperties = {
	displayName: 'Include Totals',
	name: 'includeTotals',
	type: 'boolean',
	default: false,
	description:
		'Whether to output first one extra item with the totals the service reported on the first page (no extra call) and resume_at, where a next run continues (absent when the walk reached the end)',
};

export function readOptions(context: IExecuteFunctions, itemIndex: number): IDataObject {
	return context.getNodeParameter('options', itemIndex, {}) as IDataObject;
}

/** A whole-number option of at least `min`, or `fallback` when it is not set. */
export function wholeOption(context: IExecuteFunctions, options: IDataObject, name: string, label: string, min: number, fallback: number, itemIndex: number): number {
	const value = options[name];
	if (value === undefined || value === '') return fallback;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
		throw new NodeOperationError(context.getNode(), `${label} must be a whole number of at least ${min}, got ${String(value)}`, { itemIndex });
	}
	return value;
}

/** The records, after the totals item when the options' Include Totals asks for one. */
export function withTotals(records: IDataObject[], options: IDataObject, summary: CollectSummary | undefined): IDataObject[] {
	if (options.includeTotals !== true || !summary) return records;
	const totalsItem: IDataObject = { totals: summary.totals };
	if (summary.resume) totalsItem.resume_at = summary.resume;
	return [totalsItem, ...records];
}

/**
 * The Options collection of a list operation: Include Totals, the operation's own options (signals: page size and
 * minimums) and its Start At variant, in the alphabetical order the editor lists them in.
 */
export function pagingOptions(startAt: INodeProperties, own: INodeProperties[] = [], description = 'Totals, and where to start (to resume an earlier run)'): INodeProperties {
	return { displayName: 'Options', name: 'options', description, type: 'collection', placeholder: 'Add option', default: {}, options: [includeTotalsOption, ...own, startAt] };
}

/** Options of a cursor walk (jobs of a source, sources of a collection). */
export const cursorPagingOptions = pagingOptions({
	displayName: 'Start At Cursor',
	name: 'startCursor',
	type: 'string',
	default: '',
	description: 'The page to start from: the resume_at.cursor of an earlier run with Include Totals (the service\'s cursor, as it gave it)',
});

/** The Start At Cursor option, or undefined to start at the first page. */
export function readStartCursor(options: IDataObject): string | undefined {
	const cursor = typeof options.startCursor === 'string' ? options.startCursor.trim() : '';
	return cursor === '' ? undefined : cursor;
}
