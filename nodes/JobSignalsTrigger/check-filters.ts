/** On activation, a Companies entry that is neither a domain nor a source ID stops the publish with what to fix (a delivery could only drop events). */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { OUTPUT_VERSION } from './event-output';
import { readEventFilters } from './filters';

export function checkFilters(context: IHookFunctions): void {
	if (context.getNode().typeVersion < OUTPUT_VERSION) return;
	readEventFilters(context.getNode(), context.getNodeParameter('signalFilters', {}) as IDataObject, context.getNodeParameter('jobFilters', {}) as IDataObject);
}
