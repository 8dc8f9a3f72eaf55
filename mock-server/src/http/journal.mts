/**
 * The request journal (GET /__mock/requests, MockService.requests(), and WireMock's
 * /__admin/requests): every service call (under the API base and the app URL; control
 * routes are not calls), every call a WireMock stub answered, and every other request the
 * standalone server answered itself (an unknown path, a 405, a 413, a stub path no stub
 * matched), with its method as sent (HEAD too) and the status it was
 * finally answered with: auth errors, 429s and injected faults included; 0 for an injected
 * dropped connection. It keeps each call's request headers (Authorization redacted) and
 * body (the first JOURNAL_BODY_BYTES, an upload's access_token redacted). Keeps the latest
 * LIMITS.maxJournalEntries calls, oldest dropped first, and counts what it dropped. It also
 * keeps at most LIMITS.maxJournalBytes (the URLs, which may be 8 KB each, the headers and
 * bodies, and a fixed size per entry): the oldest go first, counted alike. Entries are kept
 * raw (the hot path pays for a push: the URL as text, not the parsed URL object) and shaped
 * when read.
 */
import { z } from 'zod/v4';
import { LIMITS } from '../base/contract.mts';
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
	/** What the answer's X-Mock-Warning headers said (an unknown query parameter, …); empty when nothing. */
	warnings: string[];
	/** The request headers by lower-cased name (a repeated header joined with ", "); Authorization's credentials redacted. */
	headers: Record<string, string>;
	/** The request body as UTF-8 text, its first JOURNAL_BODY_BYTES bytes (access_token redacted); null: no body. */
	body: string | null;
	/** Whether the body was longer than JOURNAL_BODY_BYTES (the text is its start). */
	body_truncated: boolean;
	/** The WireMock stub that answered the call (see wiremock/); null: the service did. */
	stub_id: string | null;
}

export interface JournalAnswer {
	/** The matching calls, oldest first. */
	data: JournalEntry[];
	/** Calls dropped (oldest first) since the last reset because the journal was full. */
	dropped: number;
}

/** What an entry costs besides its URL's, warnings', headers' and body's characters (the entry, its strings' headers, the numbers). */
export const JOURNAL_ENTRY_BYTES = 200;
/** The most of one request body the journal keeps (its start; the rest is counted as cut). */
export const JOURNAL_BODY_BYTES = 64 * 1024;
const REDACTED = '[redacted]';
/** The headers whose credentials the journal keeps as their scheme and REDACTED (lower-cased, as fetch's Headers names them). */
export const REDACTED_HEADERS: readonly string[] = ['authorization', 'proxy-authorization'];
/** The body field whose value the journal keeps as REDACTED (the subscriber upload's token). */
export const REDACTED_BODY_FIELD = 'access_token';

/** A kept request body: its start as text, and whether there was more. */
export interface JournalBody {
	text: string;
	truncated: boolean;
}

/** A call as the journal keeps it (WireMock's request queries read these; see wiremock/journal-query.mts). */
export interface JournalRecord {
	/** Unique in the process (not reset): WireMock's request id is made of it. */
	readonly id: number;
	readonly method: string;
	readonly href: string;
	readonly accountId: string | null;
	readonly status: number;
	readonly timeMs: number;
	readonly warnings: readonly string[];
	/** Name, value, name, value… (lower-cased names, as fetch's Headers keeps them). */
	readonly headers: readonly string[];
	readonly body: JournalBody | null;
	readonly stubId: string | null;
}

interface RawEntry extends JournalRecord {
	/** What it counts against LIMITS.maxJournalBytes. */
	readonly bytes: number;
}

/** A method as the journal keeps it: any, as sent (the standalone server journals HEAD, PATCH, TRACE… too). */
const METHOD_NAME = /^[A-Z]+$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** The most calls one read answers (`limit`): the journal's own cap, which is also the default (the whole journal). */
export const MAX_JOURNAL_READ = LIMITS.maxJournalEntries;

/** A `status` filter: 0–599 (0: a dropped connection) or a class such as `4xx`; several separated by commas (any of them). */
const STATUS_TERM = /^(?:[1-5]xx|0|[1-5]\d\d)$/;

/** The filters, as query parameters (strings) or in-process values; every one is optional. */
export const journalFilterSchema = z
	.object({
		path: z.string().startsWith('/', 'path must start with "/" (a prefix of the called path, such as /v2/signals)'),
		method: z.string().toUpperCase().regex(METHOD_NAME, 'method must be a method name (GET, HEAD, POST, …)'),
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
		status: z
			.union([z.number(), z.string()])
			.transform((value, ctx) => {
				const terms = String(value).toLowerCase().split(',').map((term) => term.trim());
				if (terms.every((term) => STATUS_TERM.test(term))) return terms;
				ctx.addIssue({ code: 'custom', message: 'status must be a status (200, 429; 0 for a dropped connection) or a class (2xx, 4xx), several separated by commas' });
				return z.NEVER;
			}),
		limit: z
			.union([z.number(), z.string()])
			.transform((value, ctx) => {
				const n = typeof value === 'number' ? value : /^\d{1,9}$/.test(value) ? Number(value) : NaN;
				if (Number.isSafeInteger(n) && n >= 1 && n <= MAX_JOURNAL_READ) return n;
				ctx.addIssue({ code: 'custom', message: `limit must be a whole number from 1 to ${MAX_JOURNAL_READ} (the newest calls that match; default: all of them)` });
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

/** What the journal reads of a request: a fetch Request, or the standalone server's own view of one it answered itself. */
export interface JournaledRequest {
	readonly method: string;
	readonly headers: Headers;
}

/**
 * Requests whose method as sent is not the one they carry: the standalone server answers HEAD as GET (the routes
 * and stubs see a GET), and the journal keeps HEAD. Keyed by the request the handlers are handed.
 */
const sentMethods = new WeakMap<JournaledRequest, string>();

/** The journal keeps `request` with this method (HEAD for a HEAD answered as GET). */
export function journalAs(request: JournaledRequest, method: string): void {
	sentMethods.set(request, method);
}

/** A filter value the journal cannot use (the control route answers it with 400). */
export class JournalFilterError extends Error {}

export class Journal {
	/** The kept calls, oldest first, from `head` on (the array is compacted once half of it is dropped ones). */
	private entries: RawEntry[] = [];
	private head = 0;
	private bytes = 0;
	/** Calls logged since the last clear; the journal holds the last of them. */
	private total = 0;
	/** Calls taken out by WireMock's DELETE /__admin/requests/{id} and requests/remove (not dropped by the cap). */
	private removed = 0;
	private nextId = 1;

	/** `now`: the mock clock's date in epoch ms (clock.mts), which dates each call, as every date the mock hands out. */
	constructor(
		private readonly accounts: { accountList(): Account[] },
		private readonly now: () => number,
		private readonly capacity: number = LIMITS.maxJournalEntries,
		private readonly maxBytes: number = LIMITS.maxJournalBytes,
	) {}

	/**
	 * `accountId` is the account the route resolved, or, for a call refused before or
	 * instead of the route's own check (an injected fault), its bearer token's (http/route.mts); null: none.
	 */
	record(
		request: JournaledRequest,
		url: URL,
		accountId: string | null | undefined,
		response: Response,
		warnings: readonly string[] = [],
		body: JournalBody | null = null,
		stubId: string | null = null,
	): void {
		const headers: string[] = [];
		let bytes = url.href.length + JOURNAL_ENTRY_BYTES + warnings.reduce((sum, warning) => sum + warning.length, 0) + (body?.text.length ?? 0);
		request.headers.forEach((value, name) => {
			const kept = REDACTED_HEADERS.includes(name) ? redactCredentials(value) : value;
			headers.push(name, kept);
			bytes += name.length + kept.length;
		});
		const entry: RawEntry = {
			id: this.nextId++,
			method: sentMethods.get(request) ?? request.method,
			href: url.href,
			accountId: accountId ?? null,
			status: response.type === 'error' ? 0 : response.status,
			timeMs: this.now(),
			warnings,
			headers,
			body,
			stubId,
			bytes,
		};
		this.entries.push(entry);
		this.bytes += bytes;
		this.total++;
		while (this.entries.length - this.head > this.capacity || (this.bytes > this.maxBytes && this.entries.length - this.head > 1)) {
			this.bytes -= this.entries[this.head].bytes;
			this.head++;
		}
		if (this.head > this.entries.length / 2) {
			this.entries = this.entries.slice(this.head);
			this.head = 0;
		}
	}

	/**
	 * The calls matching the filter, oldest first: the newest `limit` of them (read from the newest back, so a small
	 * limit costs that many, whatever the journal holds). Throws JournalFilterError on a bad filter (an unknown account included).
	 */
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
		const limit = filter.limit ?? MAX_JOURNAL_READ;
		const data: JournalEntry[] = [];
		for (let i = this.entries.length - 1; i >= this.head && data.length < limit; i--) {
			const raw = this.entries[i];
			if (filter.method !== undefined && raw.method !== filter.method) continue;
			if (filter.account !== undefined && raw.accountId !== filter.account) continue;
			if (filter.since !== undefined && raw.timeMs < filter.since) continue;
			if (filter.status !== undefined && !filter.status.some((term) => statusIs(raw.status, term))) continue;
			const url = new URL(raw.href);
			if (filter.path !== undefined && !url.pathname.startsWith(filter.path)) continue;
			data.push(shape(raw, url));
		}
		return { data: data.reverse(), dropped: this.total - kept - this.removed };
	}

	/** The kept calls, oldest first. */
	records(): readonly JournalRecord[] {
		return this.entries.slice(this.head);
	}

	/** Takes these calls out (WireMock's request removal); how many there were. */
	remove(ids: ReadonlySet<number>): number {
		const kept = this.entries.slice(this.head);
		this.entries = kept.filter((entry) => !ids.has(entry.id));
		this.head = 0;
		const gone = kept.length - this.entries.length;
		this.removed += gone;
		this.bytes = this.entries.reduce((sum, entry) => sum + entry.bytes, 0);
		return gone;
	}

	clear(): void {
		this.entries = [];
		this.head = 0;
		this.bytes = 0;
		this.total = 0;
		this.removed = 0;
	}
}

/** Whether a status is the term: `4xx` its class (429 included), else that status. */
function statusIs(status: number, term: string): boolean {
	return term.endsWith('xx') ? status >= 100 && Math.floor(status / 100) === Number(term[0]) : status === Number(term);
}

/** "Bearer [redacted]": the scheme stays (a test may check it), the credentials go. */
function redactCredentials(value: string): string {
	const scheme = /^\s*([A-Za-z][\w-]*)\s+\S/.exec(value);
	return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

/** The body's text as the journal keeps it: the first JOURNAL_BODY_BYTES bytes, access_token's value redacted. */
export function journalBody(text: string): JournalBody {
	const bytes = Buffer.byteLength(text);
	const cut = bytes <= JOURNAL_BODY_BYTES ? text : Buffer.from(text).subarray(0, JOURNAL_BODY_BYTES).toString('utf8');
	return { text: redactAccessToken(cut), truncated: bytes > JOURNAL_BODY_BYTES };
}

/** The journal's copy of a body the standalone server read whole (its first JOURNAL_BODY_BYTES bytes). */
export function journalBodyOf(bytes: Uint8Array): JournalBody | null {
	if (bytes.length === 0) return null;
	const text = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, JOURNAL_BODY_BYTES)).toString('utf8');
	return { text: redactAccessToken(text), truncated: bytes.length > JOURNAL_BODY_BYTES };
}

/**
 * A copy of the request's body for the journal, read beside the handler (which reads its own),
 * or undefined when it has none. Only the first JOURNAL_BODY_BYTES are kept.
 */
export function captureBody(request: Request): Promise<JournalBody> | undefined {
	if (request.body === null) return undefined;
	return readStart(request.clone());
}

async function readStart(copy: Request): Promise<JournalBody> {
	const reader = copy.body!.getReader();
	const parts: Uint8Array[] = [];
	let length = 0;
	let truncated = false;
	try {
		for (let read = await reader.read(); !read.done; read = await reader.read()) {
			parts.push(read.value);
			length += read.value.byteLength;
			if (length > JOURNAL_BODY_BYTES) {
				truncated = true;
				await reader.cancel();
				break;
			}
		}
	} catch {
		// The client went away mid-body: keep what came.
	}
	const text = Buffer.concat(parts).subarray(0, JOURNAL_BODY_BYTES).toString('utf8');
	return { text: redactAccessToken(text), truncated };
}

/**
 * The subscriber upload's `access_token` (the account's API token) redacted wherever a body
 * carries one: a JSON string value (also one the cap cut off), or a form field.
 */
function redactAccessToken(text: string): string {
	if (!text.includes('access') && !text.includes('\\u')) return text;
	const redacted = text
		.replace(/("access_token"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|\\?$)/g, `$1"${REDACTED}"`)
		.replace(/(^|&)access_token=[^&]*/g, `$1access_token=${REDACTED}`);
	// The key written with escapes ("access\u005ftoken") is the same key to a JSON reader.
	if (!redacted.includes('\\u')) return redacted;
	try {
		const parsed = JSON.parse(redacted) as unknown;
		if (typeof parsed === 'object' && parsed !== null && 'access_token' in parsed) return JSON.stringify({ ...parsed, access_token: REDACTED });
	} catch {
		// Not JSON: nothing more to find.
	}
	return redacted;
}

function shape(raw: JournalRecord, url: URL): JournalEntry {
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
		warnings: [...raw.warnings],
		headers: headerObject(raw.headers),
		body: raw.body?.text ?? null,
		body_truncated: raw.body?.truncated ?? false,
		stub_id: raw.stubId,
	};
}

/** The kept headers as an object of name → value. */
export function headerObject(pairs: readonly string[]): Record<string, string> {
	const out: Record<string, string> = {};
	for (let i = 0; i < pairs.length; i += 2) out[pairs[i]] = pairs[i + 1];
	return out;
}
