/**
 * The wire contract that is neither an endpoint (endpoints.ts) nor a schema:
 * limits, and every choice the project made where the service description says
 * "not shown". docs/api-assumptions.md lists them; change both together. Plain
 * data only (no imports): the n8n nodes compile it.
 */

/** The mock's own control routes (not part of the service, never rate limited). */
export const MOCK_CONTROL_PATHS = {
	reset: '/__mock/reset',
	process: '/__mock/process',
	events: '/__mock/events',
	deliveries: '/__mock/deliveries',
	faults: '/__mock/faults',
	accounts: '/__mock/accounts',
	subscribers: '/__mock/accounts/:account_id/subscribers',
	/** The request journal: every service call and the status it was answered with (filters: mock-server/README.md, "Control API"). */
	requests: '/__mock/requests',
	/** Whether the state folder still saves (a failed write stops it: the mock serves on from memory). */
	state: '/__mock/state',
	/** Receiver knobs (mock-server/README.md, "Testing a webhook receiver"): one more delivery of a kept envelope, copies of one, a batch in a new order, failures of a receiver's next attempts. */
	redeliver: '/__mock/deliveries/redeliver',
	copies: '/__mock/deliveries/copies',
	reorder: '/__mock/deliveries/reorder',
	failures: '/__mock/deliveries/failures',
	/** The mock's clock: read it, freeze, set or advance it, back to the wall clock. */
	clock: '/__mock/clock',
	/** The OpenAPI 3.1 document of these control routes (the service's is OPENAPI_DOCUMENT_PATH). */
	openapi: '/__mock/openapi.json',
} as const;

/** The mock's OpenAPI 3.1 document of the service (generated from the contract; unauthenticated, not rate limited, not journaled). */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';

/** The longest e-mail address subscriber upload accepts (RFC 5321's limit; the service's own is not shown). */
export const MAX_EMAIL_ADDRESS_LENGTH = 254;

/**
 * What counts as an e-mail address for subscriber upload (the service's own rule
 * is not shown): one @, a dot in the domain, at most MAX_EMAIL_ADDRESS_LENGTH
 * characters, no spaces or commas (commas separate addresses in the upload body),
 * no control or invisible format characters (NUL, bidi overrides such as U+202E
 * that make a stored address display as another). Shared by the mock and the
 * node's pre-check.
 */
export const EMAIL_ADDRESS_PATTERN = new RegExp(
	`^(?=.{3,${MAX_EMAIL_ADDRESS_LENGTH}}$)[^\\s@,\\p{Cc}\\p{Cf}]+@[^\\s@,\\p{Cc}\\p{Cf}]+\\.[^\\s@,\\p{Cc}\\p{Cf}]+$`,
	'u',
);


export const API_VERSION_SEGMENT = '/v2';

/** Query parameter names that carry cursors (assumed: the cursor field's own name). */
export const CURSOR_PARAMS = {
	jobs: 'cursor_job_id',
	sources: 'cursor_source_id',
} as const;

export const LIMITS = {
	/** Signals: spec. */
	signalsDefaultPerPage: 25,
	signalsMaxPerPage: 1000,
	/** Job search: assumed fixed page size for the offset pagination. */
	jobSearchPageSize: 100,
	/** Cursor pages (jobs of a source, sources of a collection): assumed page size. */
	cursorPageSize: 100,
	/** Subscriber upload: spec. */
	maxAddressesPerUpload: 100,
	/** Subscriber upload: the most subscribers one account holds (the mock's own cap, so uploads cannot grow its memory without end). */
	maxSubscribersPerAccount: 100_000,
	/** Rate limit: spec, per account. */
	requestsPerMinute: 60,
	/** Webhooks: spec. */
	webhookTimeoutMs: 5000,
	webhookMaxRetries: 3,
	/** Webhooks: assumed first backoff, doubled on each retry (1 s, 2 s, 4 s). */
	webhookFirstBackoffMs: 1000,
	/** Webhooks: spec ("spaced about 1 second apart"). */
	webhookBatchSpacingMs: 1000,
	/** Webhook settings: assumed caps (the settings page shows none), so the mock's memory stays bounded. */
	maxWebhooksPerAccount: 100,
	maxWebhookUrlLength: 2048,
	maxWebhookSecretKeyLength: 256,
	/** Standalone mock: a longer request target (path and query) is 414 (assumed: the common 8 KB server limit). */
	maxRequestTargetLength: 8192,
	/** Mock control: the most changes of each kind one POST /__mock/process may ask for (the mock's own cap, so one call cannot stall it). */
	maxChangesPerCycle: 1000,
	/** Standalone mock: the default request body limit (`--max-body-bytes`), checked while reading; 413 above it. */
	maxRequestBodyBytes: 1024 * 1024,
	/** Mock control: the request journal keeps this many latest calls; older ones are dropped first (and counted). */
	maxJournalEntries: 10_000,
	/**
	 * Mock control: and at most this many bytes of them (each call counts its URL's characters and
	 * JOURNAL_ENTRY_BYTES): 10,000 calls of 8 KB URLs would keep ~80 MB in the old generation, churned by the GC.
	 */
	maxJournalBytes: 4 * 1024 * 1024,
	/**
	 * Job search (mock's own caps, so one search cannot stall the mock; the service's are not shown):
	 * the words in all of one parameter's terms (`search`, `locations`), and one term's length.
	 */
	maxSearchWords: 100,
	maxSearchTermLength: 200,
	/** Mock: how long a browser may cache a CORS preflight answer (Access-Control-Max-Age, seconds). */
	corsMaxAgeSeconds: 600,
} as const;

/** Choices where the service description says "not shown" (docs/api-assumptions.md, "Choices (CHOICES)"). */
export const CHOICES = {
	/** Missing or invalid bearer token: spec says 400 for signals; the mock uses it for every /v2 call. */
	authErrorStatus: 400,
	/** Rate-limit headers sent on every rate-limited response (names assumed). */
	rateLimitHeaderNames: {
		limit: 'X-RateLimit-Limit',
		remaining: 'X-RateLimit-Remaining',
		reset: 'X-RateLimit-Reset',
		retryAfter: 'Retry-After',
	},
	/** The rate limit does not apply to subscriber upload or webhook settings (assumed). */
	rateLimitAppliesToAppUrl: false,
	/**
	 * Job search's tag filters: repeated query parameters like `categories` (a tag may contain commas).
	 * Values of one filter are alternatives (OR), filters combine with AND; matching is exact and
	 * case-insensitive; `industry_tags` match the job's source's industry tags. A value the account
	 * has no job or source with matches nothing (200, `count_jobs` 0): unlike categories, tags are not
	 * a fixed list. An empty value is 400.
	 */
	jobSearchTagParams: { jobTags: 'job_tags', industryTags: 'industry_tags' },
	/**
	 * An account without an attached job board (a high-volume plan; spec: "category and industry
	 * filters may be unavailable"): Get Filters answers `categories` and `industry_tags` as empty
	 * arrays, and job search with `categories` or `industry_tags` answers this status, naming the parameter.
	 */
	unavailableFilterStatus: 400,
	/**
	 * A domain a source moved away from (the spec: `url_source` follows a domain change, `source_id`
	 * stays): source by domain and jobs by domain answer this status, naming the new domain and the
	 * source_id, to accounts that track the source (others get the plain 404 of an unknown domain).
	 */
	movedDomainStatus: 404,
	/**
	 * Cycles: a signal whose jobs_list jobs have all been deleted turns `inactive` (it stays
	 * listed; `active_only=false` shows it), with no webhook event; a domain move updates the jobs'
	 * `url_source` and `updated_at` without job_updated events (one `domain-url-change` signal event).
	 */
	signalInactiveWhenEvidenceJobsGone: true,
} as const;
