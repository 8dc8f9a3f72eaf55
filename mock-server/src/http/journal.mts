/**
 * The request journal (GET /__mock/requests, MockService.requests()): every
 * service call (under the API base and the app URL; control routes are not
 * calls) with the status it was finally answered with: auth errors, 429s and
 * injected faults included; 0 for an injected dropped connection. Keeps the
 * latest LIMITS.maxJournalEntries calls, oldest dropped first, and
 * counts what it dropped. It also keeps at most LIMITS.maxJournalBytes (the
 * URLs, which may be 8 KB each, and a fixed size per entry): the oldest go first,
 * counted alike. Entries are kept raw (the hot path pays for a push: the URL as
 * text, not the parsed URL object) and shaped when read.
 */
import { z } from 'zod/v4';
import { LIMITS } from '../../../contract/api';
import type { Account } from '../data/model.mts';

export interface JournalEntry {
	method: string;
	path: string;
	/** Query parameters by name; a repeated one (`categories`) is an array of its values. */
	query: Record<string, string | string[]>;
	/** The account whose token the call carried, when the token resolved to one. */
	account_id: string | null;
	status: number;
	time: string;
	time_ms: number;
}

export interface JournalAnswer {
	/** The matching calls, oldest first. */
	data: JournalEntry[];
	/** Calls dropped (oldest first) since the last reset because the journal was full. */
	dropped: number;
}

/** What an entry costs besides its URL's characters (the entry, its strings' headers, the numbers). */
export const JOURNAL_ENTRY_BYTES = 200;

interface RawEntry {
	method: string;
	href: string;
	accountId: string | null;
	status: number;
	timeMs: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** The filters, as query parameters (strings) or in-process values; every one is optional. */
export const journalFilterSchema = z
	.object({
		path: z.string().startsWith('/', 'path must start with "/" (a prefix of the called path, such as /v2/signals)'),
		method: z.string().toUpperCase().pipe(z.enum(METHODS, { error: `method must be one of ${METHODS.join(', ')}` })),
		account: z.string().min(1, 'account must be an account id'),
		since: z
			.union([z.number(), z.string(), z.date()])
			.transform((value, ctx) => {
				const ms = value instanceof Date ? value.getTime()
					: typeof value === 'number' ? value
					: /^\d+$/.test(value) ? Number(value)
					: ISO_TIME.test(value) ? isoTimeMs(value)
					: NaN;
				if (Number.isSafeInteger(ms) && ms >= 0) return ms;
				ctx.addIssue({ code: 'custom', message: 'since must be an ISO 8601 time (2026-09-21T10:00:00Z) or epoch milliseconds' });
				return z.NEVER;
			}),
	})
	.partial()
	.strict();

export type JournalFilter = z.input<typeof journalFilterSchema>;

/** An ISO time's epoch ms, NaN for a day the month lacks (Date.parse reads 2026-02-30 as 2026-03-02). */
function isoTimeMs(value: string): number {
	const [year, month, day] = value.slice(0, 10).split('-').map(Number);
	return day <= new Date(Date.UTC(year, month, 0)).getUTCDate() ? Date.parse(value) : NaN;
}

/** A filter value the journal cannot use (the control route answers it with 400). */
export class JournalFilterError extends Error {}

export class Journal {
	/** The kept calls, oldest first, from `head` on (the array is compacted once half of it is dropped ones). */
	private entries: RawEntry[] = [];
	private head = 0;
	private bytes = 0;
	/** Calls recorded since the last clear; the journal holds the last of them. */
	private total = 0;

	constructor(
		private readonly accounts: { accountList(): Account[] },
		private readonly capacity: number = LIMITS.maxJournalEntries,
		private readonly maxBytes: number = LIMITS.maxJournalBytes,
	) {}

	/**
	 * `accountId` is the account the route resolved, or, for a call refused before or
	 * instead of the route's own check (an injected fault), its bearer token's (http/route.mts); null: none.
	 */
	record(request: Request, url: URL, accountId: string | null | undefined, response: Response): void {
		const entry: RawEntry = {
			method: request.method,
			href: url.href,
			accountId: accountId ?? null,
			status: response.type === 'error' ? 0 : response.status,
			timeMs: Date.now(),
		};
		this.entries.push(entry);
		this.bytes += entryBytes(entry);
		this.total++;
		while (this.entries.length - this.head > this.capacity || (this.bytes > this.maxBytes && this.entries.length - this.head > 1)) {
			this.bytes -= entryBytes(this.entries[this.head]);
			this.head++;
		}
		if (this.head > this.entries.length / 2) {
			this.entries = this.entries.slice(this.head);
			this.head = 0;
		}
	}

	/** The calls matching the filter, oldest first. Throws JournalFilterError on a bad filter (an unknown account included). */
	read(input: JournalFilter = {}): JournalAnswer {
		const parsed = journalFilterSchema.safeParse(input);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			throw new JournalFilterError(issue.path.length > 0 ? `Invalid filter "${String(issue.path[0])}": ${issue.message}` : `Invalid filter: ${issue.message}`);
		}
		const filter = parsed.data;
		if (filter.account !== undefined && !this.accounts.accountList().some((a) => a.account_id === filter.account)) {
			throw new JournalFilterError(`Invalid filter "account": no account with id "${filter.account}"`);
		}
		const kept = this.entries.length - this.head;
		const data: JournalEntry[] = [];
		for (let i = this.head; i < this.entries.length; i++) {
			const raw = this.entries[i];
			const url = new URL(raw.href);
			if (filter.path !== undefined && !url.pathname.startsWith(filter.path)) continue;
			if (filter.method !== undefined && raw.method !== filter.method) continue;
			if (filter.account !== undefined && raw.accountId !== filter.account) continue;
			if (filter.since !== undefined && raw.timeMs < filter.since) continue;
			data.push(shape(raw, url));
		}
		return { data, dropped: this.total - kept };
	}

	clear(): void {
		this.entries = [];
		this.head = 0;
		this.bytes = 0;
		this.total = 0;
	}
}

const entryBytes = (entry: RawEntry) => entry.href.length + JOURNAL_ENTRY_BYTES;

function shape(raw: RawEntry, url: URL): JournalEntry {
	const query: Record<string, string | string[]> = {};
	for (const name of new Set(url.searchParams.keys())) {
		const values = url.searchParams.getAll(name);
		query[name] = values.length === 1 ? values[0] : values;
	}
	return {
		method: raw.method,
		path: url.pathname,
		query,
		account_id: raw.accountId,
		status: raw.status,
		time: new Date(raw.timeMs).toISOString(),
		time_ms: raw.timeMs,
	};
}
