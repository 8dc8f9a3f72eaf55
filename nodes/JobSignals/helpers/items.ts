/**
 * Turning per-item work into output items: every output item names the input
 * item it came from (pairedItem), and with "continue on fail" an input's error
 * becomes its output item instead of stopping the run.
 */
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

export type OperationRun = (this: IExecuteFunctions, items: INodeExecutionData[]) => Promise<INodeExecutionData[]>;

/** An error as it is thrown for input item `itemIndex`: n8n errors keep their type and message. */
export function errorForItem(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/** The output item for a failed input item when the node continues on fail. */
export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number, extra: IDataObject = {}): INodeExecutionData {
	const json: IDataObject = { ...extra, error: error.message };
	if (error.description) json.errorDescription = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/** An operation that runs once per input item and returns that item's results. */
export function perItem(run: (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject | IDataObject[]>): OperationRun {
	return async function (this: IExecuteFunctions, items: INodeExecutionData[]) {
		const out: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const result = await run.call(this, itemIndex);
				for (const json of Array.isArray(result) ? result : [result]) out.push({ json, pairedItem: { item: itemIndex } });
			} catch (error) {
				const failure = errorForItem(this, error, itemIndex);
				if (!this.continueOnFail()) throw failure;
				out.push(errorItem(failure, itemIndex));
			}
		}
		return out;
	};
}

/** Return All → undefined; otherwise the Limit, which must be a whole number ≥ 1. */
export function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (context.getNodeParameter('returnAll', itemIndex) === true) return undefined;
	const limit = context.getNodeParameter('limit', itemIndex) as number;
	if (!Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(context.getNode(), `Limit must be a whole number of at least 1, got ${String(limit)}`, {
			itemIndex,
		});
	}
	return limit;
}

/** A required text parameter, trimmed; empty is an error naming the field. */
export function readText(context: IExecuteFunctions, name: string, label: string, itemIndex: number): string {
	const value = context.getNodeParameter(name, itemIndex);
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (text === '') throw new NodeOperationError(context.getNode(), `${label} is required`, { itemIndex });
	return text;
}
