/**
 * Deduplication → Keep New Jobs and Signals: the one list of what a workflow has passed on, for a workflow
 * that takes new jobs and signals from both triggers (the webhook trigger at webhook speed, the Poll Trigger
 * for whatever the webhooks missed while n8n was down). Each job and signal passes this node once: its id goes
 * into the node's row of seen ids in n8n's database (`checkProcessedAndRecord`, node scope, the newest MAX_SEEN ids) and
 * a later item with that id passes nothing on. Items that are not a new job or signal (a `job_updated` or
 * `job_deleted` event) pass through, not stored. docs/guarantees.md, "No event lost across downtime" and "Keep
 * New's row of seen ids" (which ids it holds, at any batch size).
 */
import { NodeOperationError, updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodePropertyOptions } from 'n8n-workflow';
import { RECORD_ID_FIELDS } from '../../../shared/contract';
import { rememberSeenIds } from '../../../shared/seen-ids';
import { errorForItem, errorItem } from '../../helpers/items';
import { MAX_SEEN, newestFirst } from '../../helpers/newest-ids';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = {
	name: 'Keep New Jobs and Signals',
	value: 'keepNew',
	description: 'Pass on each job and signal the first time this node sees it, from any trigger of the workflow',
	action: 'Keep new jobs and signals',
};

/** Event types whose record is new: the only ones stored. A job_updated or job_deleted event is about a job already seen. */
const NEW_RECORD_EVENTS = new Set(['job_created', 'signal']);

export const description = updateDisplayOptions({ show: { resource: ['deduplication'], operation: ['keepNew'] } }, [
	{
		displayName:
			`Connect the Job Signals Trigger (Job Created, Signal) and the Job Signals (Polling) Trigger (New Job, New Signal) to this node: each job and signal comes out once, whichever trigger brings it first. Items need their job_id or signal_id (every Output of the triggers keeps it). It remembers the newest ${MAX_SEEN.toLocaleString('en-US')} (by created_at). Test runs pass everything and store nothing.`,
		name: 'keepNewNotice',
		type: 'notice',
		default: '',
	},
]);

/** The item's key in the record (`job:<id>`, `signal:<id>`), or undefined for an item that is not a new record. */
export function seenKey(context: IExecuteFunctions, item: IDataObject, itemIndex: number): string | undefined {
	if (typeof item.event_type === 'string' && !NEW_RECORD_EVENTS.has(item.event_type)) return undefined;
	for (const kind of ['job', 'signal'] as const) {
		const id = item[RECORD_ID_FIELDS[kind]];
		if (typeof id === 'string' && id !== '') return `${kind}:${id}`;
	}
	throw new NodeOperationError(context.getNode(), `Item ${itemIndex} has no job_id or signal_id`, {
		itemIndex,
		description: 'Keep New Jobs and Signals takes the items of the Job Signals triggers, whose every Output keeps job_id or signal_id. Connect it right after them, before any step that drops those fields.',
	});
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	// Every item is read before anything is stored: a failing item stops the run with nothing stored, or, on
	// Continue, becomes an error item of its own while the others are still filtered.
	const keys: Array<string | undefined> = [];
	const failed = new Map<number, INodeExecutionData>();
	items.forEach((item, index) => {
		try {
			keys.push(seenKey(this, item.json, index));
		} catch (error) {
			const failure = errorForItem(this, error, index);
			if (!this.continueOnFail()) throw failure;
			keys.push(undefined);
			failed.set(index, errorItem(failure, index));
		}
	});
	// A test run is never remembered, as the webhook trigger does not remember test deliveries; a retried execution
	// carries items this node already stored when it first ran, and they must go on.
	const mode = this.getMode();
	const isNew = mode === 'manual' || mode === 'retry' ? items.map(() => true) : await recordNew(this, items, keys);
	const passing = isNew.map((passes, index) => passes && !failed.has(index));
	const caughtUp = items.filter((item, index) => passing[index] && item.json.event_type === undefined).length;
	if (caughtUp > 0) this.addExecutionHints({ message: caughtUpHint(caughtUp), location: 'outputPane' });
	return items.flatMap<INodeExecutionData>((item, index) => failed.get(index) ?? (passing[index] ? [{ json: item.json, pairedItem: { item: index } }] : []));
}

/** Records the items' keys and answers, per item, whether it is new: a new key's first item, and every item without a key. */
async function recordNew(context: IExecuteFunctions, items: INodeExecutionData[], keys: Array<string | undefined>): Promise<boolean[]> {
	// n8n appends the new ids in the order given and keeps the last MAX_SEEN: given oldest first, the newest stay.
	const oldestFirst = newestFirst(items.map((item) => item.json)).reverse();
	const stored = [...new Set(oldestFirst.map((index) => keys[index]).filter((key): key is string => key !== undefined))];
	const node = `${context.getWorkflow().id}:${context.getNode().id}`;
	const fresh = new Set(stored.length === 0 ? [] : await rememberSeenIds(context, node, stored, MAX_SEEN));
	return keys.map((key) => {
		if (key === undefined) return true;
		// One item per new key: a key twice in one input passes its first item only.
		return fresh.delete(key);
	});
}

/**
 * A new item without an event type came from polling first: its webhook delivery had not arrived, because n8n was
 * down or unreachable, or it is still on its way (then it passes nothing on when it comes).
 */
export function caughtUpHint(count: number): string {
	return (
		`${count} of these came from polling before any webhook delivered them: n8n was down or unreachable, or the deliveries are still on their way. ` +
		'Polling brings new jobs and signals only: job_updated and job_deleted events sent while n8n could not receive them are not replayed.'
	);
}
