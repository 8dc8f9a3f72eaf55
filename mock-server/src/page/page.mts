/**
 * The page that shows the mock at work (GET /__mock/ui, the standalone server's only: server.mts answers it
 * before the routes). One HTML document, its stylesheet and script inline, made once when the module loads.
 * Its Content-Security-Policy allows exactly that stylesheet and that script (by their SHA-256), no other
 * script, no eval, and connections to the mock only; what it shows it reads from the control routes' JSON.
 */
import { MOCK_CONTROL_PATHS, WEBHOOK_EVENT_TYPES } from '../base/contract.mts';
import { apiError } from '../http/respond.mts';
import { documentStart, sha256Source } from './html-document.mts';
import { pageMain, type PageConfig } from './script.mts';
import { PAGE_STYLE } from './style.mts';

/**
 * Where the standalone server serves the page: under /__mock, so local-only as the control routes (the Host check,
 * no page on another origin: http/cors.mts, not even under `*`), but not one of them (MOCK_CONTROL_PATHS, the control API's JSON routes).
 */
export const PAGE_PATH = '/__mock/ui';

/** The page's sections, in its order: each a view the URL may name (`?view=requests`), besides `all`. */
const SECTIONS = ['accounts', 'clock', 'deliveries', 'requests', 'rules'] as const;
const SECTION_TITLES: Record<(typeof SECTIONS)[number], string> = { accounts: 'Accounts', clock: 'Clock', deliveries: 'Deliveries', requests: 'Requests', rules: 'Rules' };

const CONFIG: PageConfig = {
	paths: {
		accounts: MOCK_CONTROL_PATHS.accounts,
		requests: MOCK_CONTROL_PATHS.requests,
		deliveries: MOCK_CONTROL_PATHS.deliveries,
		faults: MOCK_CONTROL_PATHS.faults,
		failures: MOCK_CONTROL_PATHS.failures,
		// WireMock's admin API (wiremock/admin-routes.mts): its path is WireMock's, not the mock's.
		stubs: '/__admin/mappings',
		clock: MOCK_CONTROL_PATHS.clock,
		process: MOCK_CONTROL_PATHS.process,
		events: MOCK_CONTROL_PATHS.events,
		redeliver: MOCK_CONTROL_PATHS.redeliver,
		reset: MOCK_CONTROL_PATHS.reset,
	},
	eventTypes: WEBHOOK_EVENT_TYPES,
	pollMs: 1000,
	journalRows: 200,
	deliveryRows: 500,
	eventGroups: 100,
	sections: SECTIONS,
	stubRows: 100,
};

/** The script as sent: the function's own source, called with the config ("<" escaped: no string in it can end the script element). */
const SCRIPT = `(${pageMain.toString()})(${JSON.stringify(CONFIG).replace(/</g, '\\u003c')});`;

export const PAGE_CSP = [
	"default-src 'none'",
	`script-src ${sha256Source(SCRIPT)}`,
	`style-src ${sha256Source(PAGE_STYLE)}`,
	"connect-src 'self'",
	// The icon (documentStart) is an empty data: URL.
	'img-src data:',
	"base-uri 'none'",
	"form-action 'none'",
	"frame-ancestors 'none'",
].join('; ');

const HTML = `${documentStart(PAGE_STYLE)}
<header>
	<h1>Job Signals mock</h1>
	<span class="where" id="where"></span>
	<span class="where" id="updated"></span>
	<div class="actions">
		<button type="button" id="run-cycle">Run a cycle</button>
		<select id="event-type" aria-label="Event type"></select>
		<button type="button" id="send-event">Send event</button>
		<button type="button" id="reset" class="danger">Reset</button>
		<label><input type="checkbox" id="live" checked> Live</label>
	</div>
	<nav id="views" aria-label="View"><button type="button" data-view="all">All</button>${SECTIONS.map((view) => `<button type="button" data-view="${view}">${SECTION_TITLES[view]}</button>`).join('')}</nav>
	<output id="status" role="status"></output>
</header>
<main id="main">
	<section id="accounts">
		<h2>Accounts and rate-limit budgets</h2>
		<div class="view" id="accounts-view">Loading…</div>
	</section>
	<section id="clock">
		<h2>Clock</h2>
		<div class="view" id="clock-view">Loading…</div>
		<p class="filters">
			<button type="button" id="clock-freeze">Freeze</button>
			<button type="button" id="clock-advance">Advance 1 s</button>
			<button type="button" id="clock-release">Wall clock</button>
		</p>
	</section>
	<section id="deliveries" class="wide">
		<h2>Webhook deliveries <span class="count" id="deliveries-count"></span></h2>
		<div class="view" id="deliveries-view">Loading…</div>
	</section>
	<section id="requests" class="wide">
		<h2>Requests <span class="count" id="requests-count"></span></h2>
		<div class="filters">
			<label>path <input id="filter-path" placeholder="/v2/signals" size="18"></label>
			<label>method <select id="filter-method"><option value="">any</option><option>GET</option><option>POST</option><option>PUT</option><option>DELETE</option></select></label>
			<label>status <select id="filter-status"><option value="">any</option><option value="2xx">2xx</option><option value="4xx">4xx</option><option value="429">429</option><option value="5xx">5xx</option><option value="0">dropped</option></select></label>
			<label>account <select id="filter-account"><option value="">any account</option></select></label>
		</div>
		<div class="view" id="requests-view">Loading…</div>
	</section>
	<section id="rules" class="wide">
		<h2>Fault rules and stubs</h2>
		<h3>Fault rules (<code>${MOCK_CONTROL_PATHS.faults}</code>) <button type="button" id="clear-faults">Clear</button></h3>
		<div class="view" id="faults-view">Loading…</div>
		<h3>Receiver failure rules (<code>${MOCK_CONTROL_PATHS.failures}</code>)</h3>
		<div class="view" id="failures-view">Loading…</div>
		<h3>WireMock stubs (<code>${CONFIG.paths.stubs}</code>)</h3>
		<div class="view" id="stubs-view">Loading…</div>
	</section>
</main>
<script type="module">${SCRIPT}</script>
</body>
</html>
`;

const BYTES = Buffer.from(HTML, 'utf8');
const ALLOW = 'GET, HEAD, OPTIONS';

/** Whether the standalone server should answer this path with the page (with or without a trailing slash). */
export function isPagePath(pathname: string): boolean {
	return pathname === PAGE_PATH || pathname === `${PAGE_PATH}/`;
}

/** The answer to a request for the page: the page to GET and HEAD, Allow to OPTIONS, 405 to any other method. */
export function pageAnswer(method: string): Response {
	if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: ALLOW } });
	if (method !== 'GET' && method !== 'HEAD') return apiError(405, `${method} is not allowed here; allowed: ${ALLOW}`, { allow: ALLOW });
	return new Response(BYTES, {
		headers: {
			'content-type': 'text/html; charset=utf-8',
			'content-security-policy': PAGE_CSP,
			'x-content-type-options': 'nosniff',
			'referrer-policy': 'no-referrer',
			// Always the running mock's page, never a cached one of another version.
			'cache-control': 'no-store',
		},
	});
}
