/**
 * What a verification pattern (requests/find, /count, /remove) asks of what the journal keeps redacted
 * (http/journal.mts): a header whose credentials are kept as `Bearer [redacted]`, a body's access_token. Such a
 * pattern silently matches nothing it means to; the answer says so in `warnings`.
 */
import { REDACTED_BODY_FIELD, REDACTED_HEADERS } from '../http/journal.mts';
import type { RequestPattern } from './request-pattern.mts';

/** The warnings for a pattern read with readRequestPattern; [] when it asks nothing redacted. */
export function redactionWarnings(pattern: RequestPattern): string[] {
	const warnings: string[] = [];
	for (const [name, value] of pattern.parts.headers) {
		if (value.absent || !REDACTED_HEADERS.includes(name)) continue;
		warnings.push(
			`${name} is journaled redacted (its scheme, then "[redacted]": "Bearer [redacted]"), so a pattern on its credentials matches no call; ` +
				'match the scheme ({"matches": "Bearer .*"}) or find the calls by account (GET /__mock/requests?account=…)',
		);
	}
	if (pattern.parts.body.some((value) => value.shown.includes(REDACTED_BODY_FIELD))) {
		warnings.push(`A body's ${REDACTED_BODY_FIELD} is journaled as "[redacted]", so a body pattern on its value matches no call`);
	}
	return warnings;
}
