/** The items a poll emits, as the Output parameter asks (version 1.1 on; version 1 emits the service's records). */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { readOutputChoice, shapeRecord } from '../shared/output/shape';
import { OUTPUT_VERSION, type PollEvent } from './properties';

export function shapePolled(context: IPollFunctions, event: PollEvent, records: IDataObject[]): INodeExecutionData[] {
	if (context.getNode().typeVersion < OUTPUT_VERSION) return records.map((json) => ({ json }));
	const choice = readOutputChoice(context.getNode(), (name, fallback) => context.getNodeParameter(name, fallback));
	const kind = event === 'newSignal' ? 'signal' : 'job';
	return records.map((record) => ({ json: shapeRecord(record, kind, choice) }));
}
