/** The trigger's parameters; the signal, source and search fields are the action node's own. */
import { updateDisplayOptions, type IDataObject, type INodeExecutionData, type INodeProperties, type IPollFunctions } from 'n8n-workflow';
import { searchFilterProperties } from '../shared/job-search';
import { outputProperties } from '../shared/output/properties';
import { readOutputChoice, shapeRecord } from '../shared/output/shape';
import { signalFilterProperties } from '../shared/signal-filters';
import { sourceLocator } from '../shared/source-locator';

/**
 * Version 1.1: Output (Simplified by default, as the action node), and New Job reads A Job Search by default, so
 * Fetch Test Event works on the first screen. Version 1 workflows keep raw items and One Source.
 */
export const POLL_OUTPUT_VERSION = 1.1;
const fromVersion = { '@version': [{ _cnd: { gte: POLL_OUTPUT_VERSION } }] };
const version1 = { '@version': [1] };

const POLL_EVENTS = ['newSignal', 'newJob', 'updatedJob'] as const;
export type PollEvent = (typeof POLL_EVENTS)[number];

/** Trigger On's value, checked: an expression could give anything. */
export function isPollEvent(value: unknown): value is PollEvent {
	return POLL_EVENTS.some((event) => event === value);
}

const event: INodeProperties = {
	displayName: 'Trigger On',
	name: 'event',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'New Job', value: 'newJob', description: 'A job post not emitted before, of one company or of a job search' },
		{ name: 'New Signal', value: 'newSignal', description: 'An intent signal not emitted before, of a group, category or type' },
		{
			name: 'Updated Job',
			value: 'updatedJob',
			description: 'A job post of one company that changed since the last poll (for example a new title)',
		},
	],
	default: 'newSignal',
};

const notice: INodeProperties = {
	displayName:
		'Deleted jobs cannot be polled: the API lists only jobs that exist, so telling a deletion needs a full walk of every job. Use the Job Signals Trigger (webhooks) for job_deleted events.',
	name: 'deletedNotice',
	type: 'notice',
	default: '',
};

const jobsFromOptions = [
	{ name: 'A Job Search', value: 'search', description: 'The account\'s jobs matching a search (empty: all of them)' },
	{ name: 'One Source', value: 'source', description: 'The jobs of one company' },
];

/** Version 1 saved One Source as its default (n8n stores no default), so its default stays; 1.1 starts with a search that needs nothing filled in. */
const jobsFrom: INodeProperties[] = [
	{ displayName: 'Jobs From', name: 'jobsFrom', type: 'options', noDataExpression: true, options: jobsFromOptions, default: 'source', displayOptions: { show: version1 } },
	{ displayName: 'Jobs From', name: 'jobsFrom', type: 'options', noDataExpression: true, options: jobsFromOptions, default: 'search', displayOptions: { show: fromVersion } },
];

/**
 * The Source field says it must be filled in before Fetch Test Event, which n8n greys out without a word while it is
 * empty. In each mode's hint: n8n shows a resource locator's mode hint, not the field's.
 */
export const SOURCE_NEEDED = 'Needed before Fetch Test Event';
const source: INodeProperties = {
	...sourceLocator,
	modes: sourceLocator.modes?.map((mode) => ({
		...mode,
		hint: mode.name === 'domain' ? `${SOURCE_NEEDED}: the company's naked domain, without https:// or www. (acme.com)` : `${SOURCE_NEEDED}: the company's source ID (src_000123)`,
	})),
};

const updatedNotice: INodeProperties = {
	displayName:
		'The jobs list is ordered by creation, not by change, so each poll that sees a change (the service\'s metrics.updated_at moved) reads all of the company\'s job pages. Idle polls cost one request.',
	name: 'updatedNotice',
	type: 'notice',
	default: '',
};

const includeExisting: INodeProperties = {
	displayName: 'Include Existing Items',
	name: 'includeExisting',
	type: 'boolean',
	default: false,
	description:
		'Whether the first poll after activation emits the items that already exist (off: it only stores where the list stands, and later polls emit what is new)',
};

export const properties: INodeProperties[] = [
	event,
	notice,
	...updateDisplayOptions({ show: { event: ['newSignal'] } }, signalFilterProperties),
	...updateDisplayOptions({ show: { event: ['newJob'] } }, jobsFrom),
	...updateDisplayOptions({ show: { event: ['newJob'], jobsFrom: ['source'] } }, [source]),
	...updateDisplayOptions({ show: { event: ['updatedJob'] } }, [updatedNotice, source]),
	...updateDisplayOptions({ show: { event: ['newJob'], jobsFrom: ['search'] } }, searchFilterProperties),
	...updateDisplayOptions({ show: { event: ['newSignal', 'newJob'] } }, [includeExisting]),
	...outputProperties(['signal'], { ...fromVersion, event: ['newSignal'] }),
	...outputProperties(['job'], { ...fromVersion, event: ['newJob', 'updatedJob'] }),
];

/** The items a poll emits, as the Output parameter asks (from POLL_OUTPUT_VERSION; version 1 emits the service's records). */
export function shapePolled(context: IPollFunctions, event: PollEvent, records: IDataObject[]): INodeExecutionData[] {
	if (context.getNode().typeVersion < POLL_OUTPUT_VERSION) return records.map((json) => ({ json }));
	const choice = readOutputChoice(context.getNode(), (name, fallback) => context.getNodeParameter(name, fallback));
	const kind = event === 'newSignal' ? 'signal' : 'job';
	return records.map((record) => ({ json: shapeRecord(record, kind, choice) }));
}
