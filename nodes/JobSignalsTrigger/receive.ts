/**
 * The webhook function: answers every delivery at once and emits each new,
 * selected, valid event exactly once.
 *
 * Answers: 403 for a sender the sender checks refuse (sender-checks.ts: Allowed IPs, URL Secret), checked before
 * anything else, so it starts nothing and claims nothing; 200 for an emitted event, a repeated one, a type not
 * selected and an event the filters drop (anything but 200 only makes the service retry); 400 with a short reason for
 * a body that is not an envelope; 413 for a body over MAX_BODY_BYTES.
 */
import type { IDataObject, INode, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { checkEnvelope } from './envelope';
import { eventKey, inPersistedWindow } from './dedupe-window';
import { claimInProcess, triggerKey } from './process-window';
import { eventItem, toOutput, TRIGGER_OUTPUT_VERSION, type OutputMode } from './event-output';
import { filteredOut, readEventFilters } from './filters';
import { refusedSender } from './sender-checks';

/** A job or a signal is a few KB; 1 MiB leaves ample room and bounds what a sender can make n8n keep. */
export const MAX_BODY_BYTES = 1024 * 1024;

export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	// n8n's getNode() deep-copies the node with all its parameters: one copy per delivery serves every step.
	const node = this.getNode();
	const refused = refusedSender(this, node);
	if (refused !== undefined) return refuse(this, refused.status, refused.reason);
	const request = this.getRequestObject();
	if (bodyBytes(request, this.getBodyData()) > MAX_BODY_BYTES) {
		return refuse(this, 413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
	}
	const checked = checkEnvelope(this.getBodyData());
	if (!checked.valid) return refuse(this, 400, checked.reason);
	const { envelope } = checked;

	const events = this.getNodeParameter('events', []) as string[];
	if (!events.includes(envelope.event_type)) {
		return { webhookResponse: { received: true, emitted: false, reason: 'event type not selected' } };
	}
	const version = node.typeVersion;
	if (version >= TRIGGER_OUTPUT_VERSION) {
		const filters = readEventFilters(node, this.getNodeParameter('signalFilters', {}) as IDataObject, this.getNodeParameter('jobFilters', {}) as IDataObject);
		const reason = filteredOut(envelope, filters);
		if (reason !== undefined) return { webhookResponse: { received: true, emitted: false, reason } };
	}
	// A test delivery ("Listen for test event") is never a repeat: n8n does not save test runs either.
	if (this.getMode() !== 'manual' && !claimEvent(this, node, envelope.webhook_event_id)) {
		return { webhookResponse: { received: true, emitted: false, reason: 'duplicate webhook_event_id' } };
	}
	// Version 1.1 emits every field; the execution shapes it (write-window.ts). Version 1 shapes it here.
	const json = version >= TRIGGER_OUTPUT_VERSION ? eventItem(envelope) : toOutput(envelope, this.getNodeParameter('options.output', 'eventData') as OutputMode);
	return { workflowData: [[{ json }]], webhookResponse: { received: true, emitted: true } };
}

/**
 * A repeat is an id in this trigger's persisted window (as n8n loaded it for
 * this request) or claimed before in this process. The claim is written to
 * static data by `execute()`, inside the execution this delivery starts.
 */
function claimEvent(context: IWebhookFunctions, node: INode, eventId: string): boolean {
	const key = eventKey(eventId);
	if (inPersistedWindow(context.getWorkflowStaticData('node'), key)) return false;
	return claimInProcess(triggerKey(context.getWorkflow().id, node.id), key);
}

/**
 * n8n keeps the raw bytes it parsed in `rawBody`; the declared length is the
 * fallback, and the parsed body's JSON size the last resort.
 */
function bodyBytes(request: ReturnType<IWebhookFunctions['getRequestObject']>, body: IDataObject): number {
	const raw = (request as { rawBody?: unknown }).rawBody;
	if (raw instanceof Uint8Array) return raw.byteLength;
	const declared = Number(request.headers['content-length']);
	if (Number.isInteger(declared) && declared >= 0) return declared;
	return JSON.stringify(body ?? null).length;
}

function refuse(context: IWebhookFunctions, status: number, reason: string): IWebhookResponseData {
	const response = context.getResponseObject();
	response.status(status).json({ received: false, error: reason });
	return { noWebhookResponse: true };
}
