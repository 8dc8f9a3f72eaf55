/**
 * WireMock's request verification over the mock's one request journal (http/journal.mts):
 * find, count, remove by request pattern, the journal as serve events (GET
 * /__admin/requests), by id, the calls no stub answered, and near misses over the journal.
 * What the journal keeps is what verification sees: headers with Authorization redacted, the
 * first 64 KiB of each body (a pattern on what is redacted gets a warning: redacted.mts).
 */
import { headerObject, type Journal, type JournalRecord } from '../http/journal.mts';
import { fail, textValue, type Value } from './content-patterns.mts';
import { withPatternBudget, WorkBudgetExceeded, WorkMeter } from './linear-regex.mts';
import type { MappingsStore, StubMapping } from './mappings-store.mts';
import { compare } from './distance.mts';
import { closest, closestStubs, MAX_NEAR_MISSES, requestView, type NearMiss } from './near-misses.mts';
import { redactionWarnings } from './redacted.mts';
import { matchesRequest, readRequestPattern, type RequestView } from './request-pattern.mts';

/** GET /__admin/requests/unmatched/near-misses looks at the newest this many unmatched calls (each is compared with every stub). */
export const MAX_UNMATCHED_NEAR_MISS_CALLS = 100;

/** A request as WireMock's admin API shows it. */
export interface LoggedRequest {
	id: string;
	url: string;
	absoluteUrl: string;
	method: string;
	headers: Record<string, string>;
	cookies: Record<string, never>;
	browserProxyRequest: false;
	loggedDate: number;
	loggedDateString: string;
	body: string;
	bodyAsBase64: string;
	queryParams: Record<string, { key: string; values: string[] }>;
}

/** A request with what answered it, as GET /__admin/requests shows it. */
export interface ServeEvent {
	id: string;
	request: LoggedRequest;
	responseDefinition: Record<string, unknown>;
	response: { status: number };
	/** true: a stub answered; false: the stateful service did. */
	wasMatched: boolean;
	stubMapping?: StubMapping;
}

/** The journal's number as a WireMock request id (a UUID's shape, which clients expect). */
function requestId(id: number): string {
	return `00000000-0000-4000-8000-${id.toString(16).padStart(12, '0')}`;
}

function journalId(requestIdText: string): number | undefined {
	const match = /^00000000-0000-4000-8000-([0-9a-f]{12})$/i.exec(requestIdText);
	return match ? parseInt(match[1], 16) : undefined;
}

export class JournalQuery {
	constructor(
		private readonly journal: Journal,
		private readonly mappings: MappingsStore,
	) {}

	/**
	 * The calls the pattern matches, oldest first, and what the pattern asks of what the journal keeps redacted
	 * (redacted.mts). Throws MappingError for a bad pattern.
	 */
	find(pattern: unknown): { requests: LoggedRequest[]; warnings: string[] } {
		const { records, warnings } = this.matching(pattern);
		return { requests: records.map(loggedRequest), warnings };
	}

	count(pattern: unknown): { count: number; warnings: string[] } {
		const { records, warnings } = this.matching(pattern);
		return { count: records.length, warnings };
	}

	/** Takes the matching calls out of the journal; what was taken. */
	remove(pattern: unknown): { requests: LoggedRequest[]; warnings: string[] } {
		const { records, warnings } = this.matching(pattern);
		this.journal.remove(new Set(records.map((record) => record.id)));
		return { requests: records.map(loggedRequest), warnings };
	}

	/** The calls as serve events, newest first, at or after `since`, at most `limit`; `total`: how many the journal holds. */
	serveEvents({ limit, since }: { limit?: number; since?: number }): { requests: ServeEvent[]; total: number } {
		const records = this.journal.records();
		const events: ServeEvent[] = [];
		for (let i = records.length - 1; i >= 0 && (limit === undefined || events.length < limit); i--) {
			// Not a break: calls are dated by the mock clock, which a test may set back, so an older call may be dated later.
			if (since !== undefined && records[i].timeMs < since) continue;
			events.push(this.serveEvent(records[i]));
		}
		return { requests: events, total: records.length };
	}

	/** The calls no stub answered (the service did), oldest first. */
	unmatched(): LoggedRequest[] {
		return this.journal.records().filter((record) => record.stubId === null).map(loggedRequest);
	}

	/** The journal's calls nearest to a request pattern, nearest first (throws MappingError for a bad pattern). */
	nearMissesFor(input: unknown): NearMiss[] {
		const pattern = readRequestPattern(input, 'request pattern', { forStub: false });
		return closest(this.journal.records(), (record) => {
			const { view, body } = recordView(record);
			return compare(pattern, view, body);
		}, MAX_NEAR_MISSES).map(({ item, result }) => ({ request: loggedRequest(item), requestPattern: input, matchResult: { distance: result.distance } }));
	}

	/** The stubs nearest to each of the newest MAX_UNMATCHED_NEAR_MISS_CALLS unmatched calls, oldest call first. */
	unmatchedNearMisses(): NearMiss[] {
		const unmatched = this.journal.records().filter((record) => record.stubId === null).slice(-MAX_UNMATCHED_NEAR_MISS_CALLS);
		return unmatched.flatMap((record) => {
			const { view, body } = recordView(record);
			const request = loggedRequest(record);
			return closestStubs(this.mappings, view, body).map(({ item, result }) => ({ request, stubMapping: item.mapping, matchResult: { distance: result.distance } }));
		});
	}

	byId(id: string): ServeEvent | undefined {
		const number = journalId(id);
		const record = number === undefined ? undefined : this.journal.records().find((each) => each.id === number);
		return record && this.serveEvent(record);
	}

	removeById(id: string): boolean {
		const number = journalId(id);
		return number !== undefined && this.journal.remove(new Set([number])) > 0;
	}

	/** One work budget pays for the pattern's matches over the whole journal: over it, the query is refused (400), not answered in part. */
	private matching(input: unknown): { records: JournalRecord[]; warnings: string[] } {
		const pattern = readRequestPattern(input, 'request pattern', { forStub: false });
		const records = this.journal.records();
		try {
			const matched = withPatternBudget(new WorkMeter(), () =>
				records.filter((record) => {
					const { view, body } = recordView(record);
					return matchesRequest(pattern, view, body);
				}),
			);
			return { records: matched, warnings: redactionWarnings(pattern) };
		} catch (error) {
			if (error instanceof WorkBudgetExceeded) fail('request pattern', `its regular expressions over the journal's ${records.length} calls are more work than one query may take (${error.message}); narrow it with method or url, or clear the journal`);
			throw error;
		}
	}

	private serveEvent(record: JournalRecord): ServeEvent {
		const stub = record.stubId === null ? undefined : this.mappings.get(record.stubId);
		const definition = stub?.response;
		return {
			id: requestId(record.id),
			request: loggedRequest(record),
			responseDefinition: typeof definition === 'object' && definition !== null ? (definition as Record<string, unknown>) : { status: record.status, fromConfiguredStub: record.stubId !== null },
			response: { status: record.status },
			wasMatched: record.stubId !== null,
			...(stub && { stubMapping: stub }),
		};
	}
}

function recordView(record: JournalRecord): { view: RequestView; body: Value } {
	const url = new URL(record.href);
	return {
		view: requestView(record.method, `${url.pathname}${url.search}`, (name) => {
			for (let i = 0; i < record.headers.length; i += 2) if (record.headers[i] === name) return [record.headers[i + 1]];
			return [];
		}),
		body: textValue(record.body?.text ?? ''),
	};
}

function loggedRequest(record: JournalRecord): LoggedRequest {
	const url = new URL(record.href);
	const queryParams: LoggedRequest['queryParams'] = {};
	for (const key of new Set(url.searchParams.keys())) queryParams[key] = { key, values: url.searchParams.getAll(key) };
	const body = record.body?.text ?? '';
	return {
		id: requestId(record.id),
		url: `${url.pathname}${url.search}`,
		absoluteUrl: record.href,
		method: record.method,
		headers: headerObject(record.headers),
		cookies: {},
		browserProxyRequest: false,
		loggedDate: record.timeMs,
		loggedDateString: new Date(record.timeMs).toISOString(),
		body,
		bodyAsBase64: Buffer.from(body).toString('base64'),
		queryParams,
	};
}
