/**
 * Receiver knob: a webhook's (or a URL's) next attempts fail, then deliveries go on as usual, so a
 * receiver test sees the service's retries (1, 2, 4 s apart, the same webhook_event_id).
 *
 * By default the attempt is still sent and the receiver answers it, but the engine counts it as
 * failed whatever the answer was (as when the receiver's 200 is lost on the way back): the receiver
 * gets the same envelope again at the retry, which is what a test of its dedupe needs. With
 * `reach_receiver: false` the receiver is not contacted (as when it is down): it gets the envelope
 * only at the attempt after the failures, and the log shows the retry schedule.
 */
import { z } from 'zod/v4';
import { LIMITS } from '../base/contract.mts';
import type { AttemptResult } from './send-attempt.mts';
import { DeliveryKnobError } from './delivery.mts';

/** Rules waiting at once (one per webhook or URL); a rule goes once its failures are used up. */
export const MAX_FAILURE_RULES = 100;
/** Failures one rule may ask for: 25 deliveries' four attempts each. */
export const MAX_FAIL_NEXT = 100;

export const failureRuleSchema = z
	.strictObject({
		webhook_id: z.string().min(1).optional(),
		url: z.string().min(1).max(LIMITS.maxWebhookUrlLength).optional(),
		fail_next: z.number().int().min(1).max(MAX_FAIL_NEXT),
		failure: z.enum(['status', 'timeout', 'drop']).default('status'),
		/** Any status but 200 fails an attempt (spec: the receiver must answer 200). */
		status: z.number().int().min(201).max(599).optional(),
		reach_receiver: z.boolean().default(true),
	})
	.refine((r) => (r.webhook_id === undefined) !== (r.url === undefined), { message: 'give webhook_id or url (one of them)', path: ['webhook_id'] })
	.refine((r) => r.status === undefined || r.failure === 'status', { message: 'status goes with failure "status" only', path: ['status'] });

export type FailureRuleInput = z.input<typeof failureRuleSchema>;

export const FAILURE_RULE_SHAPE = '{"webhook_id" | "url", "fail_next": 1–100, "failure"?: "status" | "timeout" | "drop", "status"?: 201–599, "reach_receiver"?: true}';

/** A rule as stored and listed: `remaining` counts the failures still to come. */
export interface FailureRule {
	webhook_id?: string;
	url?: string;
	fail_next: number;
	failure: 'status' | 'timeout' | 'drop';
	/** With failure "status" only (default 500). */
	status?: number;
	reach_receiver: boolean;
	remaining: number;
}

export class FailureRules {
	private rules: FailureRule[] = [];

	/**
	 * Adds a rule, or replaces the one for the same webhook_id or url. Throws DeliveryKnobError: 400 for a bad rule,
	 * 404 when no webhook setting has the webhook_id or url (`known`), 409 past MAX_FAILURE_RULES.
	 */
	add(input: FailureRuleInput, known: (target: { webhook_id?: string; url?: string }) => boolean): FailureRule {
		const parsed = failureRuleSchema.safeParse(input);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			throw new DeliveryKnobError(400, `Invalid failure rule: ${issue.path.join('.') || 'body'}: ${issue.message}`);
		}
		const { webhook_id, url, fail_next, failure, status, reach_receiver } = parsed.data;
		const target = webhook_id === undefined ? { url } : { webhook_id };
		if (!known(target)) {
			throw new DeliveryKnobError(404, webhook_id === undefined ? `No webhook setting has the url "${url}" (give it exactly as registered)` : `No webhook setting with webhook_id "${webhook_id}"`);
		}
		const rule: FailureRule = { ...target, fail_next, failure, ...(failure === 'status' ? { status: status ?? 500 } : {}), reach_receiver, remaining: fail_next };
		const others = this.rules.filter((r) => r.webhook_id !== rule.webhook_id || r.url !== rule.url);
		if (others.length >= MAX_FAILURE_RULES) {
			throw new DeliveryKnobError(409, `${MAX_FAILURE_RULES} failure rules are waiting, the most the mock keeps: DELETE /__mock/deliveries/failures clears them`);
		}
		this.rules = [...others, rule];
		return { ...rule };
	}

	/** The rules still waiting, oldest first. */
	list(): FailureRule[] {
		return this.rules.map((rule) => ({ ...rule }));
	}

	/** Uses one failure of the rule for this webhook, else of the one for its URL: the rule, or undefined when none waits. */
	take(webhookId: string, url: string): FailureRule | undefined {
		const rule = this.rules.find((r) => r.webhook_id === webhookId) ?? this.rules.find((r) => r.url === url);
		if (rule === undefined) return undefined;
		rule.remaining -= 1;
		if (rule.remaining === 0) this.rules = this.rules.filter((r) => r !== rule);
		return { ...rule };
	}

	clear(): void {
		this.rules = [];
	}
}

/** The attempt as the rule fails it; `answer` is the receiver's real one when the attempt was sent. */
export function failedBy(rule: FailureRule, answer?: AttemptResult): AttemptResult {
	const what = rule.failure === 'status' ? `status ${rule.status}` : rule.failure === 'timeout' ? 'timeout' : 'connection dropped';
	const how = answer === undefined ? 'not sent to the receiver' : `the receiver answered ${answer.status ?? answer.error}`;
	return {
		status: rule.failure === 'status' ? (rule.status as number) : null,
		error: `${what} (failure rule, fail_next: ${how})`,
		durationMs: answer?.durationMs ?? 0,
	};
}
