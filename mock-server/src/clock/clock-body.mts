/**
 * The body of PUT /__mock/clock: clock/clock-routes.mts parses with it, the control API's OpenAPI
 * document (openapi/control-document.mts) is written from it. The clock itself: base/clock.mts.
 */
import { z } from 'zod/v4';
import { MAX_CLOCK_MS } from '../base/clock.mts';

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

export const clockBodySchema = z.strictObject({
	now: z
		.union([z.string(), z.number().int()])
		.transform((value, context) => {
			const ms = typeof value === 'number' ? value : isoMs(value);
			if (Number.isInteger(ms) && ms >= 0 && ms <= MAX_CLOCK_MS) return ms;
			context.addIssue({ code: 'custom', message: 'an ISO 8601 date ("2027-01-01" or "2027-01-01T09:30:00Z", with Z or an offset) or epoch milliseconds, from 1970 to 9999' });
			return z.NEVER;
		})
		.optional()
		.describe('The date: ISO 8601 with Z or an offset, a date alone (midnight UTC), or epoch milliseconds; 1970 to 9999. Left out: where the clock stands'),
	frozen: z.boolean().default(true).describe('false: the clock runs on from the date'),
	advance_ms: z.number().int().min(0).max(MAX_ADVANCE_MS).default(0).describe('Time passing after the date is set: the timers due by then go'),
});
