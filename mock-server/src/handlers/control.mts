/**
 * The mock's own control routes (not part of the service; no auth, no rate limit, no faults).
 * Those that change the mock (POST, PUT, DELETE) need `Content-Type: application/json` or an
 * `X-Mock-Control` header: a web page can send neither to another site without a CORS preflight,
 * so a page the user visits cannot reset or drive the mock with a form or a simple request.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { z } from 'zod/v4';
import { MOCK_CONTROL_PATHS } from '../base/contract.mts';
import { faultsBodySchema, type Faults } from '../http/faults.mts';
import { parseJsonBody } from '../http/body.mts';
import { JournalFilterError, type JournalAnswer, type JournalFilter } from '../http/journal.mts';
import { parseQuery } from '../http/query.mts';
import { jsonListInSlices } from '../http/json-in-slices.mts';
import { apiError } from '../http/respond.mts';
import { CONTROL_HEADER } from '../http/cors.mts';
import { nextTurn, Work } from '../base/work.mts';
import type { Account, Subscriber } from '../data/model.mts';
import type { RateBudget } from '../http/rate-limit.mts';
import { UnknownRecord, type ChosenChange, type CycleSizes } from '../cycles/cycle.mts';
import { EVENT_BODY_SHAPE, eventBodySchema, CYCLE_BODY_SHAPE, cycleBodySchema } from '../cycles/control-bodies.mts';
import { MAX_LOG_ENTRIES, type DeliveryLogEntry } from '../webhooks/delivery-engine.mts';
import type { CycleEvent } from '../webhooks/envelope.mts';
import type { MockClock } from '../base/clock.mts';
import { clockRoutes } from '../clock/clock-routes.mts';
import { receiverKnobRoutes, type ReceiverKnobs } from '../receiver-knobs/routes.mts';

export interface ControlActions extends ReceiverKnobs {
	clock: MockClock;
	reset(): Promise<void>;
	processCycle(sizes?: CycleSizes, sourceId?: string): Promise<CycleEvent[]>;
	emitEvent(change: ChosenChange): Promise<CycleEvent[]>;
	accounts(): Account[];
	/** The account's rate-limit budget now (null: the limit is off). */
	rateBudget(accountId: string): RateBudget | null;
	subscribersOf(accountId: string): Subscriber[];
	requests(filter: JournalFilter): JournalAnswer;
	persistence(): { state_dir: string | null; persisting: boolean; error: string | null };
	/** The webhook delivery log (every attempt, oldest first; with `newest`, the last that many). */
	deliveries(newest?: number): DeliveryLogEntry[];
	faults: Faults;
}

/** The change's events (written a share per turn: a large cycle's are megabytes), or 404 when it names a source or job that does not exist. */
async function changed(run: () => Promise<CycleEvent[]>): Promise<Response> {
	try {
		const events = await run();
		// The answer's share of work starts with a turn of its own, not in the cycle's last one.
		await nextTurn();
		return await jsonListInSlices('events', events, new Work());
	} catch (error) {
		if (error instanceof UnknownRecord) return apiError(404, error.message);
		throw error;
	}
}


/** The 403 for a changing control call a page could have sent cross-site, or undefined when it could not have. */
function crossSiteRefusal(request: Request): Response | undefined {
	const type = request.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
	if (type === 'application/json' || request.headers.has(CONTROL_HEADER)) return undefined;
	return apiError(
		403,
		`Control routes that change the mock need "Content-Type: application/json" or an ${CONTROL_HEADER} header (a web page cannot send either cross-site without a preflight); ` +
			`e.g. curl -X ${request.method} -H 'Content-Type: application/json' …`,
	);
}

/** GET /__mock/deliveries' query: `limit`, the newest attempts (default: the whole log, MAX_LOG_ENTRIES, also the most). */
export const deliveriesQuerySchema = z
	.object({
		limit: z
			.string()
			.regex(/^\d{1,9}$/, `limit must be a whole number from 1 to ${MAX_LOG_ENTRIES}`)
			.transform(Number)
			.pipe(z.number().min(1, `limit must be a whole number from 1 to ${MAX_LOG_ENTRIES}`).max(MAX_LOG_ENTRIES, `limit must be a whole number from 1 to ${MAX_LOG_ENTRIES} (the log keeps that many)`)),
	})
	.partial()
	.strict();

type Resolver = Parameters<typeof http.post>[1];
const changing = (resolve: Resolver): Resolver => (info) => crossSiteRefusal(info.request) ?? resolve(info);

export function controlHandlers(actions: ControlActions): HttpHandler[] {
	const path = (p: string) => `*${p}`;
	return [
		http.post(path(MOCK_CONTROL_PATHS.reset), changing(async () => {
			await actions.reset();
			return HttpResponse.json({ reset: true });
		})),
		http.post(path(MOCK_CONTROL_PATHS.process), changing(async ({ request }) => {
			// No body at all is the usual cycle, as before the body existed.
			const body = (await request.clone().text()).trim() === ''
				? cycleBodySchema.parse({})
				: await parseJsonBody(request, cycleBodySchema, { fail: (message) => apiError(400, message), shape: CYCLE_BODY_SHAPE, what: 'cycle' });
			if (body instanceof Response) return body;
			const { source_id, ...sizes } = body;
			return changed(() => actions.processCycle(sizes, source_id));
		})),
		http.post(path(MOCK_CONTROL_PATHS.events), changing(async ({ request }) => {
			const body = await parseJsonBody(request, eventBodySchema, { fail: (message) => apiError(400, message), shape: EVENT_BODY_SHAPE, what: 'event' });
			if (body instanceof Response) return body;
			return changed(() => actions.emitEvent(body));
		})),
		http.get(path(MOCK_CONTROL_PATHS.accounts), () =>
			HttpResponse.json({
				data: actions.accounts().map(({ account_id, organization_id, name, token, job_tags, job_board, filters }) => ({
					account_id, organization_id, name, token, job_tags, job_board, filters, rate_limit: actions.rateBudget(account_id),
				})),
			}),
		),
		// What subscriber upload did, for integration tests (the service has no read endpoint for it).
		http.get(path(MOCK_CONTROL_PATHS.subscribers), ({ params }) => {
			const accountId = String(params.account_id);
			if (!actions.accounts().some((a) => a.account_id === accountId)) return apiError(404, `No account with id "${accountId}"`);
			return HttpResponse.json({ data: actions.subscribersOf(accountId) });
		}),
		// The journal's filters are strings here; the journal itself checks them (in-process callers pass values).
		http.get(path(MOCK_CONTROL_PATHS.requests), ({ request }) => {
			const filter = parseQuery(z.record(z.string(), z.string()), new URL(request.url));
			if (filter instanceof Response) return filter;
			try {
				return HttpResponse.json(actions.requests(filter));
			} catch (error) {
				if (error instanceof JournalFilterError) return apiError(400, error.message);
				throw error;
			}
		}),
		http.get(path(MOCK_CONTROL_PATHS.state), () => HttpResponse.json(actions.persistence())),
		http.get(path(MOCK_CONTROL_PATHS.deliveries), ({ request }) => {
			// Read as strings first: an unknown parameter (a typo of limit) is a 400, not the whole log.
			const raw = parseQuery(z.record(z.string(), z.string()), new URL(request.url));
			if (raw instanceof Response) return raw;
			const query = deliveriesQuerySchema.safeParse(raw);
			if (!query.success) {
				const issue = query.error.issues[0];
				return apiError(400, issue.code === 'unrecognized_keys' ? `Unknown query parameter "${issue.keys[0]}"; known: limit` : `Invalid query parameter "limit": ${issue.message}`);
			}
			return HttpResponse.json({ data: actions.deliveries(query.data.limit) });
		}),
		http.get(path(MOCK_CONTROL_PATHS.faults), () => HttpResponse.json({ faults: actions.faults.list() })),
		http.put(path(MOCK_CONTROL_PATHS.faults), changing(async ({ request }) => {
			const body = await parseJsonBody(request, faultsBodySchema, {
				fail: (message) => apiError(400, message),
				shape: '{"faults": [{"path", "method"?, "status"?, "body"?, "rate"?, "latency_ms"?, "drop"?, "after"?, "times"?}]}',
				what: 'faults',
			});
			if (body instanceof Response) return body;
			actions.faults.set(body.faults);
			return HttpResponse.json({ faults: actions.faults.list() });
		})),
		http.delete(path(MOCK_CONTROL_PATHS.faults), changing(() => {
			actions.faults.clear();
			return new HttpResponse(null, { status: 204 });
		})),
		...knobAndClockHandlers(actions),
	];
}

/** Testing a webhook receiver: the receiver knobs and the clock (their bodies and answers: receiver-knobs/, clock/). */
function knobAndClockHandlers(actions: ControlActions): HttpHandler[] {
	const path = (p: string) => `*${p}`;
	const knobs = receiverKnobRoutes(actions);
	const clock = clockRoutes(actions.clock);
	return [
		http.post(path(MOCK_CONTROL_PATHS.redeliver), changing(({ request }) => knobs.redeliver(request))),
		http.post(path(MOCK_CONTROL_PATHS.copies), changing(({ request }) => knobs.copies(request))),
		http.post(path(MOCK_CONTROL_PATHS.reorder), changing(({ request }) => knobs.reorder(request))),
		http.get(path(MOCK_CONTROL_PATHS.failures), () => knobs.failures()),
		http.post(path(MOCK_CONTROL_PATHS.failures), changing(({ request }) => knobs.addFailure(request))),
		http.delete(path(MOCK_CONTROL_PATHS.failures), changing(() => knobs.clearFailures())),
		http.get(path(MOCK_CONTROL_PATHS.clock), () => clock.read()),
		http.put(path(MOCK_CONTROL_PATHS.clock), changing(({ request }) => clock.set(request))),
		http.delete(path(MOCK_CONTROL_PATHS.clock), changing(() => clock.release())),
	];
}
