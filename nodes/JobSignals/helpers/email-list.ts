/**
 * Sorting the addresses of a run before anything is sent: every address is
 * checked (EMAIL_ADDRESS_PATTERN), repeats within the run are sent once, and
 * what is left is cut into calls of at most LIMITS.maxAddressesPerUpload.
 */
import { EMAIL_ADDRESS_PATTERN } from '../../shared/contract';

export interface ItemAddresses {
	itemIndex: number;
	/** Valid and new in this run: these are sent. */
	queued: string[];
	invalid: string[];
	/** Already given earlier in this run (case-insensitive): sent once only. */
	duplicates: string[];
}

/** One parameter value → addresses. Commas, semicolons and line breaks separate; arrays are flattened. */
export function splitAddresses(value: unknown): string[] {
	const parts = Array.isArray(value) ? value.flat(Infinity) : [value];
	return parts
		.filter((part) => part !== null && part !== undefined)
		.flatMap((part) => String(part).split(/[,;\r\n]/))
		.map((address) => address.trim())
		.filter((address) => address !== '');
}

/** Sorts one item's addresses; `seen` carries the run's addresses across items. */
export function sortAddresses(itemIndex: number, addresses: string[], seen: Set<string>): ItemAddresses {
	const sorted: ItemAddresses = { itemIndex, queued: [], invalid: [], duplicates: [] };
	for (const address of addresses) {
		const key = address.toLowerCase();
		if (!EMAIL_ADDRESS_PATTERN.test(address)) sorted.invalid.push(address);
		else if (seen.has(key)) sorted.duplicates.push(address);
		else {
			seen.add(key);
			sorted.queued.push(address);
		}
	}
	return sorted;
}

export interface Batch {
	addresses: string[];
	/** Which input item each address came from. */
	itemIndexes: number[];
}

export function batchesOf(items: ItemAddresses[], size: number): Batch[] {
	const batches: Batch[] = [];
	let current: Batch = { addresses: [], itemIndexes: [] };
	for (const item of items) {
		for (const address of item.queued) {
			if (current.addresses.length === size) {
				batches.push(current);
				current = { addresses: [], itemIndexes: [] };
			}
			current.addresses.push(address);
			current.itemIndexes.push(item.itemIndex);
		}
	}
	if (current.addresses.length > 0) batches.push(current);
	return batches;
}
