/**
 * The clock's control routes (GET, PUT and DELETE /__mock/clock), wired in handlers/control.mts with the
 * other control routes and their cross-site rule. The clock itself: clock.mts.
 */
import { z } from 'zod/v4';
import { MAX_CLOCK_MS, type MockClock } from '../clock.mts';
import { parseJsonBody } from '../http/body.mts';
import { apiError } from '../http/respond.mts';

/** One call advances at most a leap year: enough for any wait the mock has (the longest is a cycle interval). */
export const MAX_ADVANCE_MS = 366 * 24 * 60 * 60 * 1000;

/** A date and time with its offset (`Z` or ±hh:mm), or a date alone (midnight UTC): a time without an offset would be read in the mock's own zone. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** The date's milliseconds, or NaN for a string that is not one (a 31st of February included). */
function isoMs(value: string): number {
	const match = ISO_DATE.exec(value);
	if (!match) return NaN;
	const [year, month, day] = match.slice(1, 4).map(Number);
	return month >= 1 && month <= 12 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate() ? Date.parse(value) : NaN;
}

const clockBodySchema = z.strictObject({
	now: z
		.union([z.string(), z.number().int()])
		.transform((value, context) => {
			const ms = typeof value === 'number' ? value : isoMs(value);
			if (Number.isInteger(ms) && ms >= 0 && ms <= MAX_CLOCK_MS) return ms;
			context.addIssue({ code: 'custom', message: 'an ISO 8601 date ("2027-01-01" or "2027-01-01T09:30:00Z", with Z or an offset) or epoch milliseconds, from 1970 to 9999' });
			return z.NEVER;
		})
		.optional(),
	frozen: z.boolean().default(true),
	advance_ms: z.number().int().min(0).max(MAX_ADVANCE_MS).default(0),
});

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
