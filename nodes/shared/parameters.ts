/**
 * Node parameters read with their kind checked. A field set by expression can
 * hold anything; a value of the wrong kind is an error that names the field,
 * where a cast would pass it on.
 */
import { NodeOperationError, type INode } from 'n8n-workflow';

/** The order of every list the editor shows (Job Functions, the collection picker, the account's tags): by name as a reader sorts, case and accents aside. */
export const compareNames = (a: string, b: string): number => a.localeCompare(b, 'en', { sensitivity: 'base' });

/** One parameter's value: the action node reads an item's, the triggers and the editor's lists the node's. */
export type ParameterReader = (name: string, fallback: string | string[] | boolean) => unknown;

const shown = (value: unknown) => JSON.stringify(value) ?? String(value);

/** Text, trimmed; `fallback` when unset. */
export function readString(node: INode, read: ParameterReader, name: string, label: string, fallback = '', itemIndex?: number): string {
	const value = read(name, fallback) ?? fallback;
	if (typeof value !== 'string') throw new NodeOperationError(node, `${label} must be text, got ${shown(value)}`, { itemIndex });
	return value.trim();
}

/** On or off; `fallback` when unset. */
export function readBoolean(node: INode, read: ParameterReader, name: string, label: string, fallback: boolean, itemIndex?: number): boolean {
	const value = read(name, fallback) ?? fallback;
	if (typeof value !== 'boolean') throw new NodeOperationError(node, `${label} must be true or false, got ${shown(value)}`, { itemIndex });
	return value;
}

/** The entries of a list, or of a comma-separated text (a field set by expression), trimmed; empty entries left out. */
export function listEntries(value: unknown): string[] {
	const entries: unknown[] = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
	return entries.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}

/** A list of texts (a multi-select); empty when unset. */
export function readStrings(node: INode, read: ParameterReader, name: string, label: string, itemIndex?: number): string[] {
	const value = read(name, []) ?? [];
	if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
		throw new NodeOperationError(node, `${label} must be a list of texts, got ${shown(value)}`, { itemIndex });
	}
	return value.map(String);
}
