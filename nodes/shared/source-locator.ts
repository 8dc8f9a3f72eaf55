/**
 * The Source parameter (a resource locator: by domain or by source id) and the
 * API path it selects. Domains are naked (the service's url_source): a pasted
 * URL is reduced to its host, anything else that is not a domain is an error.
 */
import { NodeApiError, NodeOperationError, type IExecuteFunctions, type INode, type INodeProperties } from 'n8n-workflow';
import { ENDPOINTS } from './contract';
import { target, type Target } from './transport/answers';
import { explained, notFoundStep } from './transport/errors';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const SOURCE_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

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
		if (!SOURCE_ID.test(raw)) {
			throw new NodeOperationError(node, `"${raw}" is not a source ID`, {
				itemIndex,
				description: 'A source ID is the source_id of a company (e.g. src_000123), as Source → Get Many in Collection and signals give it. For a domain, switch Source to Domain.',
			});
		}
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

/**
 * Second-level labels under which country registries sell names (acme.co.uk, acme.com.au): the registered domain of
 * careers.acme.co.uk is acme.co.uk, not co.uk. A short list, not the Public Suffix List: a miss only costs one more 404.
 */
const SECOND_LEVEL = new Set(['ac', 'co', 'com', 'edu', 'gov', 'ltd', 'me', 'net', 'org', 'plc']);

/** The registered domain of a host: careers.acme.com → acme.com, jobs.acme.co.uk → acme.co.uk; a registered domain is itself. */
export function registeredDomain(domain: string): string {
	const labels = domain.split('.');
	const keep = labels.length >= 3 && labels.at(-1)!.length === 2 && SECOND_LEVEL.has(labels.at(-2)!) ? 3 : 2;
	return labels.slice(-keep).join('.');
}

/** The domains to ask for, in order: the host as given, then (when it has a subdomain) its registered domain. */
export function domainCandidates(domain: string): string[] {
	const registered = registeredDomain(domain);
	return registered === domain ? [domain] : [domain, registered];
}

const UNTRACKED: unique symbol = Symbol('untracked');

/**
 * Runs `call` on the Source parameter's path (the source's or its jobs'). A domain the service does not track is tried
 * again as its registered domain, so a job link on the company's careers or jobs subdomain (the API's own url_job form)
 * finds the company. A source the service does not know ends in an error that says what to do next.
 */
export async function forSource<T, Of extends 'source' | 'jobs'>(context: IExecuteFunctions, itemIndex: number, of: Of, call: (at: SourceTarget<Of>) => Promise<T>): Promise<T> {
	return await forSourceRef(context.getNode(), readSource(context, itemIndex), of, call, itemIndex);
}

/** forSource for a Source already read (the Poll Trigger's one-source mode). */
export async function forSourceRef<T, Of extends 'source' | 'jobs'>(node: INode, ref: SourceRef, of: Of, call: (at: SourceTarget<Of>) => Promise<T>, itemIndex?: number): Promise<T> {
	const tries = ref.by === 'domain' ? domainCandidates(ref.value) : [ref.value];
	let notFound: unknown;
	for (const value of tries) {
		// Only a 404 is caught: every other failure (the transport's NodeApiError) goes on as it came.
		const result = await call(sourceTarget({ by: ref.by, value }, of)).catch(async (error: unknown): Promise<typeof UNTRACKED> => {
			if (!(error instanceof NodeApiError && error.httpCode === '404')) return await Promise.reject(error as Error);
			notFound = error;
			return UNTRACKED;
		});
		if (result !== UNTRACKED) return result;
	}
	// Every domain tried answered 404: the endpoint's step, naming them all.
	const { endpoint } = sourceTarget(ref, of);
	throw explained(node, notFound as NodeApiError, notFoundStep(ENDPOINTS[endpoint].notFound, ref.by === 'domain' ? { url_source: tries } : { source_id: tries }), itemIndex);
}

export type SourceTarget<Of extends 'source' | 'jobs'> = Of extends 'source' ? Target<'sourceByDomain' | 'sourceById'> : Target<'jobsOfSourceByDomain' | 'jobsOfSourceById'>;

/** The source's endpoint, or the endpoint of its jobs. */
export function sourceTarget<Of extends 'source' | 'jobs'>(ref: SourceRef, of: Of): SourceTarget<Of> {
	const at =
		ref.by === 'domain'
			? target(of === 'source' ? 'sourceByDomain' : 'jobsOfSourceByDomain', { url_source: ref.value })
			: target(of === 'source' ? 'sourceById' : 'jobsOfSourceById', { source_id: ref.value });
	return at as SourceTarget<Of>;
}
