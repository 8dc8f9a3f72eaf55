/**
 * The clock's control routes (GET, PUT and DELETE /__mock/clock), wired in handlers/control.mts with the
 * other control routes and their cross-site rule. The clock itself: base/clock.mts; the PUT body: clock-body.mts.
 */
import { MAX_CLOCK_MS, type MockClock } from '../base/clock.mts';
import { clockBodySchema, MAX_ADVANCE_MS } from './clock-body.mts';
import { parseJsonBody } from '../http/body.mts';
import { apiError } from '../http/respond.mts';

const fail = (message: string) => apiError(400, message);

export function clockRoutes(clock: MockClock) {
	return {
		read: (): Response => Response.json(clock.state()),
		/** Sets the date (or keeps it), freezes the clock or lets it run, then advances it; answers where it stands. */
		async set(request: Request): Promise<Response> {
			const body = await parseJsonBody(request, clockBodySchema, {
				fail,
				shape: `{"now"?: ISO 8601 or epoch ms, "frozen"?: true, "advance_ms"?: 0–${MAX_ADVANCE_MS}}`,
				what: 'clock',
			});
			if (body instanceof Response) return body;
			const at = body.now ?? clock.now();
			// Checked before anything moves, so a refused call changes nothing.
			if (at + body.advance_ms > MAX_CLOCK_MS) return fail('Invalid clock: advance_ms: it would take the clock past 9999-12-31T23:59:59.999Z');
			clock.set(at, body.frozen);
			clock.advance(body.advance_ms);
			return Response.json(clock.state());
		},
		/** Back to the wall clock, running. */
		release(): Response {
			clock.release();
			return new Response(null, { status: 204 });
		},
	};
}
