/**
 * Serves a harnessed trigger over real HTTP, the way n8n's webhook server
 * does: parse the JSON body (400 when it is not JSON), keep the raw bytes,
 * run the webhook function, write its answer.
 */
import type { createTrigger } from './trigger.mts';
import { startReceiver, type Answer } from '../../mock-server/test/receiver.mts';

export type Trigger = ReturnType<typeof createTrigger>;

/** What a test may do around the trigger: answer differently or late, per attempt. */
export interface Interference {
	before?: (eventId: string, attempt: number) => Promise<number | undefined> | number | undefined;
	after?: (eventId: string, attempt: number) => Promise<number | undefined> | number | undefined;
}

export async function serveTrigger(trigger: Trigger, interference: Interference = {}) {
	const emitted: Array<Record<string, unknown>> = [];
	const attempts = new Map<string, number>();
	/** Milliseconds the webhook function took per delivery (parse to answer), for the benchmark. */
	const handlingMs: number[] = [];
	const answer: Answer = async (request, rawBody, response) => {
		const started = performance.now();
		let body: unknown;
		try {
			body = JSON.parse(rawBody.toString('utf8'));
		} catch {
			response.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"invalid JSON"}');
			return;
		}
		const eventId = String((body as { webhook_event_id?: unknown })?.webhook_event_id);
		const attempt = (attempts.get(eventId) ?? 0) + 1;
		attempts.set(eventId, attempt);
		const early = await interference.before?.(eventId, attempt);
		if (early !== undefined) {
			response.writeHead(early).end();
			return;
		}
		const result = await trigger.deliver({ body, headers: request.headers, rawBody });
		handlingMs.push(performance.now() - started);
		if (result.emitted) emitted.push(...result.emitted);
		const late = await interference.after?.(eventId, attempt);
		response.writeHead(late ?? result.status, { 'content-type': 'application/json' }).end(JSON.stringify(result.body));
	};
	const receiver = await startReceiver(answer);
	return { ...receiver, emitted, attempts, handlingMs };
}
