/**
 * The Output parameter (Simplified, Raw, Selected Fields) and its Fields list, as n8n's UX guidelines ask of a node
 * an AI agent uses: one builder for the action node, the webhook trigger and the Poll Trigger.
 */
import type { INodeProperties, IDisplayOptions } from 'n8n-workflow';
import { RECORD_FIELDS, RECORD_ID_FIELDS, type RecordKind } from '../contract';
import { SIMPLIFIED_SHAPES } from './simplified';

export type OutputMode = 'simplified' | 'raw' | 'selected';

/** The simplified fields of a record kind, read off the shape itself so the description cannot drift from it. */
export const simplifiedFieldNames = (kind: RecordKind): string[] => Object.keys(SIMPLIFIED_SHAPES[kind]({}));

/** The Fields list's options: the record's fields from the contract, sorted as the editor lists options. */
export function fieldOptions(paths: readonly string[]) {
	return [...new Set(paths)].sort().map((path) => ({ name: path, value: path }));
}

/**
 * The fields Selected Fields starts with: the ids of the records (contract/record-fields.ts, RECORD_ID_FIELDS) and
 * `extra` (the webhook trigger's webhook_event_id), sorted as Fields lists them.
 */
export function idFields(kinds: readonly RecordKind[], extra: readonly string[] = []): string[] {
	return [...new Set([...extra, ...kinds.map((kind) => RECORD_ID_FIELDS[kind])])].sort();
}

/**
 * Output and Fields for records of these kinds (several for the webhook trigger: a job or a signal), shown where
 * `show` says (a node version, an operation). `extra` are fields beside the record's (the trigger's event fields) and
 * the ids among them that Fields starts with (the trigger's webhook_event_id).
 *
 * Selected Fields keeps the id, as n8n's UX guidelines ask when the user picks fields: Fields starts with the records'
 * ids chosen (its default), so the user sees them, picks more beside them, or removes them as any chosen field. The
 * nodes return exactly the fields chosen and never add an id at run time, since a list without it is the user's
 * removal: a saved Fields list without the id (n8n saves a list that differs from the default) runs without it, and
 * a saved empty list starts from the ids.
 */
export function outputProperties(kinds: RecordKind[], show: IDisplayOptions['show'], extra: { simplified?: string[]; fields?: readonly string[]; ids?: readonly string[] } = {}): INodeProperties[] {
	const simplified = kinds.map((kind) => `${kinds.length > 1 ? `${kind}: ` : ''}${[...(extra.simplified ?? []), ...simplifiedFieldNames(kind)].join(', ')}`).join('; ');
	const paths = [...(extra.fields ?? []), ...kinds.flatMap((kind) => RECORD_FIELDS[kind])];
	const ids = idFields(kinds, extra.ids);
	const idsChosen = ids.length > 1 ? `The IDs (${ids.join(', ')}) are chosen to begin with; remove one to leave it out.` : `The record's ID (${ids[0]}) is chosen to begin with; remove it to leave it out.`;
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			displayOptions: { show },
			options: [
				{ name: 'Simplified', value: 'simplified', description: `At most 10 fields per record, times as ISO 8601 (${simplified})` },
				{ name: 'Raw', value: 'raw', description: 'Every field, as the service sends it (times as Unix seconds)' },
				{ name: 'Selected Fields', value: 'selected', description: 'Only the fields chosen in Fields (the record\'s ID to begin with), as the service sends them' },
			],
			default: 'simplified',
			description: 'How much of each record to return: an AI agent pays for every field in its context',
		},
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			displayOptions: { show: { ...show, output: ['selected'] } },
			options: fieldOptions(paths),
			default: [...ids],
			required: true,
			description: `The fields to return, as the service names them; a dotted path (info.type) is a field of a nested object. A field a record lacks is left out. ${idsChosen}`,
		},
	];
}
