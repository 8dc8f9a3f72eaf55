/**
 * The action node's records as its version asks: version 3 has Output (Simplified, Raw, Selected Fields); version 2
 * keeps its Simplify switch and the shapes it was saved with (simplify-v2.ts); version 1 stays raw.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { RecordKind } from '../contract';
import { applySimplify, simplifyJob, simplifySignal, simplifySource } from './simplify-v2';
import { readOutputChoice, shapeRecord } from './shape';

/** Version 2's Simplify shapes; collections had none (raw). */
const VERSION_2_SIMPLIFY: Record<RecordKind, (record: IDataObject) => IDataObject> = {
	signal: simplifySignal,
	job: simplifyJob,
	source: simplifySource,
	collection: (record) => record,
};

/** The first node version with the Output parameter. */
export const ACTION_OUTPUT_VERSION = 3;

export function shapedOutput<T extends IDataObject | IDataObject[]>(context: IExecuteFunctions, itemIndex: number, kind: RecordKind, result: T): T {
	if (context.getNode().typeVersion < ACTION_OUTPUT_VERSION) return applySimplify(context, itemIndex, VERSION_2_SIMPLIFY[kind], result);
	const choice = readOutputChoice(context.getNode(), (name, fallback) => context.getNodeParameter(name, itemIndex, fallback), itemIndex);
	return (Array.isArray(result) ? result.map((record) => shapeRecord(record, kind, choice)) : shapeRecord(result, kind, choice)) as T;
}
