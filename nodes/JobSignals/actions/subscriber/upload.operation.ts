/**
 * Subscriber → Upload: the addresses of all input items, checked first, then
 * sent in as few calls as the 100-address limit allows. Each input item gets
 * one output item saying what became of its addresses.
 */
import {
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { LIMITS } from '../../../shared/contract';
import { CREDENTIAL_TYPE, serviceRequest } from '../../../shared/transport/request';
import { batchesOf, sortAddresses, splitAddresses, type ItemAddresses } from '../../helpers/email-list';
import { errorForItem, errorItem } from '../../helpers/items';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = { name: 'Upload', value: 'upload', description: 'Add e-mail addresses to the account\'s subscriber list', action: 'Upload subscribers' };

const properties: INodeProperties[] = [
	{
		displayName: 'E-Mail Addresses',
		name: 'emailAddresses',
		type: 'string',
		default: '={{ $json.email }}',
		required: true,
		placeholder: 'e.g. ada@example.com, grace@example.com',
		description:
			'The address(es) of this item: one, or several separated by commas. Addresses of all items are uploaded together, at most 100 per call.',
		hint: 'Upload only addresses that opted in: spam and bounces can restrict the account\'s sending.',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['subscriber'], operation: ['upload'] } }, properties);

interface Outcome {
	uploaded: string[];
	failed: string[];
	error?: ReturnType<typeof errorForItem>;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const seen = new Set<string>();
	const sorted: Array<ItemAddresses | ReturnType<typeof errorForItem>> = [];
	// Every item is read and checked before anything is sent, so a bad item stops the run with nothing half done.
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const addresses = splitAddresses(this.getNodeParameter('emailAddresses', itemIndex));
			if (addresses.length === 0) throw new NodeOperationError(this.getNode(), 'No e-mail address in this item', { itemIndex });
			sorted.push(sortAddresses(itemIndex, addresses, seen));
		} catch (error) {
			const failure = errorForItem(this, error, itemIndex);
			if (!this.continueOnFail()) throw failure;
			sorted.push(failure);
		}
	}

	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const accessToken = String(credentials.accessToken || credentials.apiToken);
	const outcomes = new Map<number, Outcome>();
	const outcomeOf = (itemIndex: number) => outcomes.get(itemIndex) ?? outcomes.set(itemIndex, { uploaded: [], failed: [] }).get(itemIndex)!;
	const toSend = sorted.filter((entry): entry is ItemAddresses => !(entry instanceof Error));
	let uploadedSoFar = 0;
	for (const batch of batchesOf(toSend, LIMITS.maxAddressesPerUpload)) {
		try {
			const body = { email_addresses: batch.addresses.join(','), access_token: accessToken };
			await serviceRequest(this, { endpoint: 'subscriberUpload', body, operation: 'Subscriber → Upload' });
			batch.addresses.forEach((address, i) => outcomeOf(batch.itemIndexes[i]).uploaded.push(address));
			uploadedSoFar += batch.addresses.length;
		} catch (error) {
			const failure = errorForItem(this, error, batch.itemIndexes[0]);
			if (!this.continueOnFail()) {
				failure.description = `${uploadedSoFar} address(es) were uploaded before this call failed; the rest of the run was not sent. ${failure.description ?? ''}`.trim();
				throw failure;
			}
			batch.addresses.forEach((address, i) => {
				const outcome = outcomeOf(batch.itemIndexes[i]);
				outcome.failed.push(address);
				outcome.error = failure;
			});
		}
	}

	return sorted.map((entry, itemIndex) => {
		if (entry instanceof Error) return errorItem(entry, itemIndex);
		const outcome = outcomes.get(itemIndex) ?? { uploaded: [], failed: [] };
		const json: IDataObject = { uploaded: outcome.uploaded, invalid: entry.invalid, duplicates: entry.duplicates };
		if (outcome.error) return errorItem(outcome.error, itemIndex, { ...json, failed: outcome.failed });
		return { json, pairedItem: { item: itemIndex } };
	});
}
