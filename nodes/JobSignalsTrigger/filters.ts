/**
 * The trigger's filters (from TRIGGER_OUTPUT_VERSION): which signal events and which job events start the workflow. An event that
 * does not pass is answered 200 (so the service does not retry it) with the reason, and starts nothing: no execution,
 * nothing claimed in the dedupe window.
 */
import { NodeOperationError, type IDataObject, type IHookFunctions, type INode, type INodeProperties } from 'n8n-workflow';
import { eventTypesCarrying, SIGNAL_GROUPS, unhandled, WEBHOOK_EVENTS } from '../shared/contract';
import { listEntries } from '../shared/parameters';
import { belowMinimum, SIGNAL_LEVELS } from '../shared/signal-filters';
import { shownValue, textOf } from '../shared/record-parts';
import { normalizeDomain, SOURCE_ID } from '../shared/source-locator';
import type { Envelope } from './envelope';
import { TRIGGER_OUTPUT_VERSION } from './event-output';

export const filterProperties: INodeProperties[] = [
	{
		displayName: 'Signal Filters',
		name: 'signalFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Which signal events start the workflow; the others are answered and dropped. None: every signal event.',
		displayOptions: { show: { events: ['signal'] } },
		options: [
			{
				displayName: 'Active Only',
				name: 'activeOnly',
				type: 'boolean',
				default: false,
				description: 'Whether to start only on signals the company currently has (signal_recency active)',
			},
			{
				displayName: 'Category Names or IDs',
				name: 'categories',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getFilterSignalCategories', loadOptionsDependsOn: ['signalFilters.groups'] },
				default: [],
				description:
					'Only signals of these categories (of the chosen groups); none: any. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Direct Only',
				name: 'directOnly',
				type: 'boolean',
				default: false,
				description: 'Whether to start only on signals with direct evidence (signal_classification direct)',
			},
			{
				displayName: 'Groups',
				name: 'groups',
				type: 'multiOptions',
				options: SIGNAL_GROUPS.map((group) => ({ name: group[0].toUpperCase() + group.slice(1), value: group })),
				default: [],
				description: 'Only signals of these groups; none: any',
			},
			{ displayName: 'Minimum Match', name: 'minMatch', type: 'options', options: SIGNAL_LEVELS, default: 1, description: 'Only signals that match their type this closely or more (signal_match, 1–3)' },
			{ displayName: 'Minimum Severity', name: 'minSeverity', type: 'options', options: SIGNAL_LEVELS, default: 1, description: 'Only signals this severe or more (signal_severity, 1–3)' },
			{
				displayName: 'Type Names or IDs',
				name: 'types',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getFilterSignalTypes', loadOptionsDependsOn: ['signalFilters.groups', 'signalFilters.categories'] },
				default: [],
				description:
					'Only signals of these types (of the chosen categories); none: any. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	},
	{
		displayName: 'Job Filters',
		name: 'jobFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Which job events start the workflow; the others are answered and dropped. None: every job event.',
		displayOptions: { show: { events: eventTypesCarrying('job') } },
		options: [
			{
				displayName: 'Companies',
				name: 'companies',
				type: 'string',
				default: '',
				placeholder: 'e.g. acme.com, src_000123',
				description: 'Only jobs of these companies: domains (acme.com; a pasted URL is reduced to its domain) or source IDs, separated by commas. Empty: any company.',
			},
		],
	},
];

export interface EventFilters {
	groups: string[];
	categories: string[];
	types: string[];
	minSeverity: number;
	minMatch: number;
	directOnly: boolean;
	activeOnly: boolean;
	domains: Set<string>;
	sourceIds: Set<string>;
}

/** The filters as set; a Companies entry that is neither a domain nor a source ID is an error that names it. */
export function readEventFilters(node: INode, signal: IDataObject, jobs: IDataObject): EventFilters {
	const domains = new Set<string>();
	const sourceIds = new Set<string>();
	for (const entry of listEntries(String(jobs.companies ?? '').replace(/\n/g, ','))) {
		const domain = entry.includes('.') ? normalizeDomain(entry) : undefined;
		if (domain) domains.add(domain);
		else if (SOURCE_ID.test(entry)) sourceIds.add(entry);
		else {
			throw new NodeOperationError(node, `Job Filters → Companies: "${entry}" is neither a domain nor a source ID`, {
				description: 'Give company domains (acme.com) or source IDs (src_000123, as signals and Source → Get Many in Collection list them), separated by commas.',
			});
		}
	}
	return {
		groups: listEntries(signal.groups),
		categories: listEntries(signal.categories),
		types: listEntries(signal.types),
		minSeverity: Number(signal.minSeverity ?? 1),
		minMatch: Number(signal.minMatch ?? 1),
		directOnly: signal.directOnly === true,
		activeOnly: signal.activeOnly === true,
		domains,
		sourceIds,
	};
}

/** Why the event does not pass, or undefined when it does. */
export function filteredOut(envelope: Envelope, filters: EventFilters): string | undefined {
	const data = envelope.event_data;
	const carries = WEBHOOK_EVENTS[envelope.event_type].carries;
	switch (carries) {
		case 'signal': {
			const info = (typeof data.info === 'object' && data.info !== null ? data.info : {}) as IDataObject;
			if (filters.groups.length > 0 && !filters.groups.includes(textOf(info.group))) return `signal group ${shownValue(info.group)} not selected`;
			if (filters.categories.length > 0 && !filters.categories.includes(textOf(info.category))) return `signal category ${shownValue(info.category)} not selected`;
			if (filters.types.length > 0 && !filters.types.includes(textOf(info.type))) return `signal type ${shownValue(info.type)} not selected`;
			const below = belowMinimum(data, filters.minSeverity, filters.minMatch);
			if (below) return below;
			if (filters.directOnly && data.signal_classification !== 'direct') return 'signal not direct';
			if (filters.activeOnly && data.signal_recency !== 'active') return 'signal not active';
			return undefined;
		}
		case 'job': {
			if (filters.domains.size + filters.sourceIds.size === 0) return undefined;
			const domain = typeof data.url_source === 'string' ? data.url_source.toLowerCase() : '';
			if (filters.domains.has(domain) || filters.sourceIds.has(textOf(data.source_id))) return undefined;
			return 'company not selected';
		}
		default:
			return unhandled(carries);
	}
}

/** On activation, a Companies entry that is neither a domain nor a source ID stops the publish with what to fix (a delivery could only drop events). */
export function checkFilters(context: IHookFunctions): void {
	if (context.getNode().typeVersion < TRIGGER_OUTPUT_VERSION) return;
	readEventFilters(context.getNode(), context.getNodeParameter('signalFilters', {}) as IDataObject, context.getNodeParameter('jobFilters', {}) as IDataObject);
}
