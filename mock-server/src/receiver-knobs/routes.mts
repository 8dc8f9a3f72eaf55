/**
 * The receiver knobs' control routes (POST /__mock/deliveries/redeliver, /copies, /reorder; POST, GET and
 * DELETE /__mock/deliveries/failures), wired in handlers/control.mts with the other control routes and
 * their cross-site rule. The knobs themselves are the delivery engine's (webhooks/delivery-engine.mts).
 */
import { parseJsonBody } from '../http/body.mts';
import { apiError } from '../http/respond.mts';
import { DeliveryKnobError, type QueuedDelivery, type Webhooks } from '../webhooks/index.mts';
import { MAX_COPIES, MAX_REORDERED } from '../webhooks/delivery-engine.mts';
import { FAILURE_RULE_SHAPE, failureRuleSchema } from '../webhooks/failure-rules.mts';
import { copiesBodySchema, redeliverBodySchema, reorderBodySchema } from './bodies.mts';

/** What the routes call: the knobs as the service offers them in-process. */
export type ReceiverKnobs = Webhooks['knobs'];

const fail = (message: string) => apiError(400, message);

/** The knob's answer, or its refusal (400, 404, 409) as an API error. */
function answer(run: () => unknown, status = 200): Response {
	try {
		return Response.json(run(), { status });
	} catch (error) {
		if (error instanceof DeliveryKnobError) return apiError(error.status, error.message);
		throw error;
	}
}

const queued = (run: () => QueuedDelivery[]) => answer(() => ({ queued: run() }), 202);

export function receiverKnobRoutes(knobs: ReceiverKnobs) {
	return {
		async redeliver(request: Request): Promise<Response> {
			const body = await parseJsonBody(request, redeliverBodySchema, { fail, shape: '{"webhook_event_id"}', what: 'redelivery' });
			return body instanceof Response ? body : queued(() => knobs.redeliver(body.webhook_event_id));
		},
		async copies(request: Request): Promise<Response> {
			const body = await parseJsonBody(request, copiesBodySchema, { fail, shape: `{"webhook_event_id", "copies": 1–${MAX_COPIES}, "at_once"?: false}`, what: 'copies' });
			return body instanceof Response ? body : queued(() => knobs.sendCopies(body.webhook_event_id, body.copies, { atOnce: body.at_once }));
		},
		async reorder(request: Request): Promise<Response> {
			// No body, like {}, is the last batch reversed.
			const body = (await request.clone().text()).trim() === ''
				? {}
				: await parseJsonBody(request, reorderBodySchema, { fail, shape: `{"webhook_event_ids"?: [1–${MAX_REORDERED} ids]} or no body`, what: 'reorder' });
			return body instanceof Response ? body : queued(() => knobs.reorder(body.webhook_event_ids));
		},
		async addFailure(request: Request): Promise<Response> {
			const body = await parseJsonBody(request, failureRuleSchema, { fail, shape: FAILURE_RULE_SHAPE, what: 'failure rule' });
			return body instanceof Response ? body : answer(() => (knobs.failNext(body), { failures: knobs.deliveryFailures() }));
		},
		failures: (): Response => answer(() => ({ failures: knobs.deliveryFailures() })),
		clearFailures(): Response {
			knobs.clearDeliveryFailures();
			return new Response(null, { status: 204 });
		},
	};
}
