/**
 * A delivery's body held to the webhook event envelope: the contract's rule for
 * it (contract/answers.ts, webhookEvent, which restates webhookEventSchema) and,
 * by the record its event type carries (contract/events.ts), what that record
 * must name. Checked by the same checker, in the same words, as the service's
 * answers. Unknown extra fields are allowed, so a service that adds fields keeps
 * working; everything the node reads is checked, so no body can make it throw later.
 */
import { ANSWERS, EVENT_RECORD_RULES, WEBHOOK_EVENTS } from '../shared/contract';
import type { AnswerTypes } from '../shared/transport/answers';
import { problemIn } from '../shared/transport/check-answer';

export type Envelope = AnswerTypes['webhookEvent'];

export type EnvelopeCheck = { valid: true; envelope: Envelope } | { valid: false; reason: string };

export function checkEnvelope(body: unknown): EnvelopeCheck {
	const problem = problemIn(body, ANSWERS.webhookEvent, '', 'the body');
	if (problem !== undefined) return { valid: false, reason: `not a webhook event envelope: ${problem}` };
	const envelope = body as Envelope;
	const recordProblem = problemIn(envelope, EVENT_RECORD_RULES[WEBHOOK_EVENTS[envelope.event_type].carries]);
	if (recordProblem) return { valid: false, reason: `not a webhook event envelope: ${recordProblem} (${envelope.event_type})` };
	return { valid: true, envelope };
}
