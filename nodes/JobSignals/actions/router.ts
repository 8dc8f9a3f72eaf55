/** Runs the chosen resource's operation over all input items. */
import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';
import { operationFor } from './resources';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const run = operationFor(resource, operation);
	if (!run) throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported for resource "${resource}"`);
	return [await run.call(this, this.getInputData())];
}
