/**
 * The Source parameter (a resource locator: by domain or by source id) and the
 * API path it selects. Domains are naked (the service's url_source): a pasted
 * URL is reduced to its host, anything else that is not a domain is an error.
 */
import { NodeOperationError, type IExecuteFunctions, type INode, type INodeProperties } from 'n8n-workflow';
import { API_PATHS, fillPath } from '../contract';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const SOURCE_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

export const sourceLocator: INodeProperties = {
	displayName: 'Source',
	name: 'source',
	type: 'resourceLocator',
	default: { mode: 'domain', value: '' },
	required: true,
	description: 'The company (source), by its domain or by its source ID',
	modes: [
		{
			// Mode labels fit the editor's 92 px mode selector ("By Domain" showed as "By Doma").
			displayName: 'Domain',
			name: 'domain',
			type: 'string',
			placeholder: 'e.g. acme.com',
			hint: 'The naked domain, without https:// or www.',
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. src_000123',
		},
	],
};

export function normalizeDomain(input: string): string | undefined {
	const host = input
		.trim()
		.toLowerCase()
		.replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
		.replace(/[/?#].*$/s, '')
		.replace(/^www\./, '')
		.replace(/\.$/, '');
	return DOMAIN.test(host) ? host : undefined;
}

export interface SourceRef {
	by: 'domain' | 'id';
	value: string;
}

export function readSource(context: IExecuteFunctions, itemIndex: number): SourceRef {
	const locator = context.getNodeParameter('source', itemIndex, undefined, { extractValue: false });
	return sourceRefFrom(context.getNode(), locator, itemIndex);
}

/** The Source parameter's value (not extracted: its mode says domain or id), checked. */
export function sourceRefFrom(node: INode, value: unknown, itemIndex?: number): SourceRef {
	const locator = value as { mode?: string; value?: unknown } | undefined;
	const raw = typeof locator?.value === 'string' ? locator.value.trim() : String(locator?.value ?? '').trim();
	if (raw === '') throw new NodeOperationError(node, 'Source is required: give a domain or a source ID', { itemIndex });
	if (locator?.mode === 'id') {
		if (!SOURCE_ID.test(raw)) throw new NodeOperationError(node, `"${raw}" is not a source ID`, { itemIndex });
		return { by: 'id', value: raw };
	}
	const domain = normalizeDomain(raw);
	if (!domain) {
		throw new NodeOperationError(node, `"${raw}" is not a domain`, {
			itemIndex,
			description: 'Give the company\'s naked domain, e.g. acme.com, or switch the Source field to By ID.',
		});
	}
	return { by: 'domain', value: domain };
}

/** The source's path, or the path of its jobs. */
export function sourcePath(ref: SourceRef, of: 'source' | 'jobs'): string {
	const byDomain = ref.by === 'domain';
	const path =
		of === 'source'
			? byDomain ? API_PATHS.sourceByDomain : API_PATHS.sourceById
			: byDomain ? API_PATHS.jobsOfSourceByDomain : API_PATHS.jobsOfSourceById;
	return fillPath(path, byDomain ? { url_source: ref.value } : { source_id: ref.value });
}
