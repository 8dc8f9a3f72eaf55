/**
 * Deduplication → Keep New Jobs and Signals: the one record of what a workflow has passed on, for a workflow
 * that takes new jobs and signals from both triggers (the webhook trigger at webhook speed, the Poll Trigger
 * for whatever the webhooks missed while n8n was down). Each job and signal passes this node once: its id goes
 * into the node's record in n8n's database (`checkProcessedAndRecord`, node scope, the newest MAX_SEEN ids) and
 * a later item with that id passes nothing on. Items that are not a new job or signal (a `job_updated` or
 * `job_deleted` event) pass through unrecorded. docs/guarantees.md, "No event lost across downtime".
 */
import { NodeOperationError, updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodePropertyOptions } from 'n8n-workflow';
import { RECORD_ID_FIELDS } from '../../../shared/contract';
import { recordInDatabase } from '../../../shared/database-record';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = {
	name: 'Keep New Jobs and Signals',
	value: 'keepNew',
	description: 'Pass on each job and signal the first time this node sees it, from any trigger of the workflow',
	action: 'Keep new jobs and signals',
};

/**
 * Far more than any downtime's catch-up (a poll reads at most a few thousand items), and small enough that n8n's read
 * and write of the whole record on every execution stays cheap: 10,000 ids of up to 40 characters is under 0.5 MB.
 */
export const MAX_SEEN = 10_000;

/** Event types whose record is new: the only ones recorded. A job_updated or job_deleted event is about a job already seen. */
const NEW_RECORD_EVENTS = new Set(['job_created', 'signal']);

export const description = updateDisplayOptions({ show: { resource: ['deduplication'], operation: ['keepNew'] } }, [
	{
		displayName:
			'Connect the Job Signals Trigger (Job Created, Signal) and the Job Signals (Polling) Trigger (New Job, New Signal) to this node: each job and signal comes out once, whichever trigger brings it first. Items need their job_id or signal_id (every Output of the triggers keeps it). Test runs pass everything and record nothing.',
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
	const keys = items.map((item, index) => seenKey(this, item.json, index));
	const paired = items.map((item, index) => ({ json: item.json, pairedItem: { item: index } }));
	// A test run is never remembered, as the webhook trigger does not remember test deliveries; a retried execution
	// carries items this node already recorded when it first ran, and they must go on.
	const mode = this.getMode();
	if (mode === 'manual' || mode === 'retry') return paired;
	const recorded = keys.filter((key): key is string => key !== undefined);
	if (recorded.length === 0) return paired;
	const fresh = new Set(await recordInDatabase(this, `${this.getWorkflow().id}:${this.getNode().id}`, [...new Set(recorded)], MAX_SEEN));
	const passing = paired.filter((_, index) => {
		const key = keys[index];
		if (key === undefined) return true;
		// One item per new key: a key twice in one input passes its first item only.
		if (!fresh.has(key)) return false;
		fresh.delete(key);
		return true;
	});
	const caughtUp = passing.filter((item) => item.json.event_type === undefined).length;
	if (caughtUp > 0) this.addExecutionHints({ message: caughtUpHint(caughtUp), location: 'outputPane' });
	return passing;
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
