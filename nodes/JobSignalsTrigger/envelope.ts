/**
 * A delivery's body held to the webhook event envelope: the rule below restates
 * the contract's webhookEventSchema (test/node/answers.test.mts holds the two
 * together) and is checked by the same checker, in the same words, as the
 * service's answers (transport/check-answer.ts). Unknown extra fields are
 * allowed, so a service that adds fields keeps working; everything the node
 * reads is checked, so no body can make it throw later.
 */
import type { IDataObject } from 'n8n-workflow';
import { WEBHOOK_EVENT_TYPES, type WebhookEvent } from '../shared/contract';
import type { Rule } from '../shared/transport/answers';
import { problemIn } from '../shared/transport/check-answer';

/** The envelope as its rule checks it: event_data is passed on as the sender wrote it (a job or a signal). */
export type Envelope = Omit<WebhookEvent, 'event_data'> & { event_data: IDataObject };

export const ENVELOPE_RULE = {
	object: {
		webhook_event_id: 'deliveryId',
		webhook_id: 'deliveryId',
		organization_id: 'deliveryId',
		event_type: { oneOf: WEBHOOK_EVENT_TYPES },
		event_data: { object: {} },
		created_at: 'timestamp',
		updated_at: 'timestamp',
	},
} satisfies Rule;

/** A job event's data must name its job: the dedupe and the output read job_id. */
const JOB_EVENT_RULE = { object: { event_data: { object: { job_id: 'id' } } } } satisfies Rule;
const JOB_EVENT_TYPES: readonly string[] = ['job_created', 'job_updated', 'job_deleted'];

export type EnvelopeCheck = { valid: true; envelope: Envelope } | { valid: false; reason: string };

function isEnvelope(body: unknown): body is Envelope {
	return problemIn(body, ENVELOPE_RULE, '', 'the body') === undefined;
}

export function checkEnvelope(body: unknown): EnvelopeCheck {
	if (!isEnvelope(body)) return { valid: false, reason: `not a webhook event envelope: ${problemIn(body, ENVELOPE_RULE, '', 'the body') ?? ''}` };
	if (JOB_EVENT_TYPES.includes(body.event_type)) {
		const problem = problemIn(body, JOB_EVENT_RULE);
		if (problem) return { valid: false, reason: `not a webhook event envelope: ${problem} (${body.event_type})` };
	}
	return { valid: true, envelope: body };
}
