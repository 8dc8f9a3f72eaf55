/**
 * The page's script. It runs in the browser: page.mts sends this function's own source text inline,
 * called with the config (`pageMain.toString()`), so it is type-checked and linted with the mock but must
 * stand alone: it may use only its parameter, its own locals and the browser's globals (the types below
 * are erased). It reads the mock only through the control routes' JSON, as any client would; that JSON's
 * types are the ones the routes answer with (type imports, erased too).
 */
import type { ClockState } from '../base/clock.mts';
import type { ListedFaultRule as FaultRow } from '../http/faults.mts';
import type { JournalEntry as JournalRow } from '../http/journal.mts';
import type { RateBudget } from '../http/rate-limit.mts';
import type { DeliveryLogEntry as Attempt } from '../webhooks/delivery-engine.mts';
import type { FailureRule as FailureRow } from '../webhooks/failure-rules.mts';

/** The routes the page reads and drives (MOCK_CONTROL_PATHS, and WireMock's stub list). */
export interface PagePaths {
	accounts: string;
	requests: string;
	deliveries: string;
	faults: string;
	failures: string;
	stubs: string;
	clock: string;
	process: string;
	events: string;
	redeliver: string;
	reset: string;
}

export interface PageConfig {
	paths: PagePaths;
	eventTypes: readonly string[];
	/** The shortest wait between two polls; a slow poll (a large journal or log) waits 4 times as long as it took. */
	pollMs: number;
	/** The newest journal entries shown (the journal is asked for one more: whether there are older ones). */
	journalRows: number;
	/** The newest delivery attempts read (GET /__mock/deliveries?limit=): the timeline is made of them. */
	deliveryRows: number;
	/** The newest events shown in the delivery timeline. */
	eventGroups: number;
	/** What the URL's `view` may name besides `all`: each a section's id. */
	sections: readonly string[];
	/** The stubs listed (GET /__admin/mappings?limit=). */
	stubRows: number;
}

interface AccountRow {
	account_id: string;
	name: string;
	token: string;
	job_board: boolean;
	filters: { regions: string[] };
	rate_limit?: RateBudget | null;
}
interface StubRow {
	id: string;
	name?: string;
	priority?: number;
	request?: { method?: string; url?: string; urlPath?: string; urlPathPattern?: string; urlPattern?: string };
	response?: { status?: number; fault?: string };
}

export function pageMain(config: PageConfig): void {
	const { paths } = config;
	type Child = Node | string | number | null | undefined | false;

	/** An element with attributes and children; text goes in as text, never as markup. */
	const h = (tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement => {
		const element = document.createElement(tag);
		for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
		for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child instanceof Node ? child : String(child));
		return element;
	};
	const byId = <T extends HTMLElement>(id: string): T => {
		const element = document.getElementById(id);
		if (!element) throw new Error(`the page has no #${id}`);
		return element as T;
	};
	const table = (head: string[], rows: Child[][], kind?: string): HTMLElement =>
		h('table', kind === undefined ? {} : { class: kind }, h('thead', {}, h('tr', {}, ...head.map((name) => h('th', {}, name)))), h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))));
	/** A table in a box that scrolls sideways when the window is narrower than the table (no cell is squeezed into breaking a word). */
	const scroll = (content: HTMLElement, tall = false): HTMLElement => h('div', { class: tall ? 'scroll tall' : 'scroll' }, content);
	const statusClass = (status: number | null): string =>
		status === null || status === 0 ? 's0' : status === 429 ? 's429' : `s${String(status).charAt(0)}`;
	const badge = (status: number | null, text = status === null ? '—' : String(status)) => h('span', { class: `badge ${statusClass(status)}` }, text);
	const duration = (ms: number): string => {
		if (ms < 1000) return `${Math.round(ms)} ms`;
		if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
		if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
		if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
		return ms < 172_800_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 86_400_000)} days`;
	};
	/**
	 * A time as the journal and the delivery log date things: the mock clock's, UTC. "Today" is the mock clock's day
	 * (its last answer), not the browser's: a time on that day shows as 09:00:03.120, one on any other day with its
	 * date (2026-11-28 12:04:00.000), so after a clock jump the times of before stand apart. Until the clock has
	 * answered, every time has its date.
	 */
	let today: number | undefined;
	const DAY_MS = 86_400_000;
	const clockTime = (ms: number): HTMLElement => {
		const iso = new Date(ms).toISOString();
		const text = Math.floor(ms / DAY_MS) === today ? iso.slice(11, 23) : `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
		return h('time', { class: 'mono nowrap', datetime: iso, title: iso }, text);
	};

	const statusLine = byId<HTMLOutputElement>('status');
	const say = (text: string, kind: 'ok' | 'error' = 'ok') => {
		statusLine.textContent = text;
		statusLine.dataset.kind = kind;
	};

	/**
	 * What the page shows lives in its URL (`?view=requests&status=4xx&path=/v2/jobs`), so a link opens the same view:
	 * a change pushes a history entry, back and forward go through them. `view`: `all` or one section's id; the rest
	 * are the journal's filters, as its route takes them. Values the page does not offer go to the route as they
	 * are (its 400 says what is wrong), but for an unknown view, which shows all and says so.
	 */
	interface UrlState {
		view: string;
		path: string;
		method: string;
		status: string;
		account: string;
	}
	const FILTERS = ['path', 'method', 'status', 'account'] as const;
	const readUrl = (): UrlState => {
		const query = new URLSearchParams(location.search);
		const view = query.get('view') ?? 'all';
		return { view, path: query.get('path') ?? '', method: query.get('method') ?? '', status: query.get('status') ?? '', account: query.get('account') ?? '' };
	};
	const urlOf = (state: UrlState): string => {
		const query = new URLSearchParams();
		if (state.view !== 'all') query.set('view', state.view);
		for (const name of FILTERS) if (state[name] !== '') query.set(name, state[name]);
		const text = query.toString();
		return `${location.pathname}${text === '' ? '' : `?${text}`}${location.hash}`;
	};
	let state = readUrl();

	/** One view: a control route polled, and what its answer looks like on the page. */
	interface View {
		id: string;
		/** The section it is in (the URL's `view` names sections). */
		section: string;
		url(): string;
		render(body: unknown, into: HTMLElement): void;
		/** The answer last shown: an unchanged answer is not drawn again (a selection or a scroll stays). */
		last?: string;
	}

	/** A view that cannot show its data says why instead; it is drawn again at the next answer. */
	const show = (view: View, state: 'unavailable' | 'error', message: string) => {
		view.last = undefined;
		const into = byId(`${view.id}-view`);
		into.dataset.state = state;
		into.replaceChildren(message);
	};

	/** The API error body's message (WireMock's `detail` for an admin route's), else the start of the text. */
	const messageOf = (text: string): string => {
		try {
			const body = JSON.parse(text) as { message?: unknown; errors?: { detail?: unknown }[] };
			if (typeof body.message === 'string') return body.message;
			const detail = Array.isArray(body.errors) ? body.errors[0]?.detail : undefined;
			if (typeof detail === 'string') return detail;
		} catch {
			// not JSON: the text itself says what happened
		}
		return text.slice(0, 200);
	};

	/** Reads a view's route and draws it; never rejects (one view's trouble is shown in that view only). */
	async function load(view: View): Promise<void> {
		const url = view.url();
		const path = url.split('?')[0];
		let response: Response;
		let text: string;
		try {
			response = await fetch(url, { cache: 'no-store' });
			text = await response.text();
		} catch {
			return show(view, 'error', `The mock does not answer GET ${path}: is it still running?`);
		}
		if (response.status === 404) return show(view, 'unavailable', `Not available: GET ${path} answered 404 (this version of the mock does not have it).`);
		if (!response.ok) return show(view, 'error', `GET ${path} answered ${response.status}: ${messageOf(text)}`);
		if (text === view.last) return;
		const into = byId(`${view.id}-view`);
		try {
			view.render(JSON.parse(text), into);
		} catch (error) {
			return show(view, 'error', `GET ${path} answered what this page cannot read (${error instanceof Error ? error.message : String(error)}).`);
		}
		view.last = text;
		into.dataset.state = 'ok';
	}

	// Accounts and their rate-limit budgets.
	const accountFilter = byId<HTMLSelectElement>('filter-account');
	let offered = '';
	/** The accounts offered, and the URL's account even when it is none of them (the journal's 400 then says so). */
	const offerAccounts = (ids: string[]) => {
		const extra = state.account !== '' && !ids.includes(state.account) ? [state.account] : [];
		accountFilter.replaceChildren(h('option', { value: '' }, 'any account'), ...[...ids, ...extra].map((id) => h('option', { value: id }, id)));
		accountFilter.value = state.account;
	};
	const budget = (limit: RateBudget | null | undefined): Child => {
		if (limit === undefined) return h('span', { class: 'empty' }, 'not shown by this mock');
		if (limit === null) return 'off';
		const meter = h('meter', { min: '0', max: String(limit.limit), value: String(limit.remaining), low: String(Math.ceil(limit.limit / 10)), optimum: String(limit.limit) });
		const reset = limit.resets_in_ms === null ? 'whole' : `resets in ${duration(limit.resets_in_ms)}`;
		return h('span', { class: 'nowrap' }, meter, ` ${limit.remaining} / ${limit.limit} left, ${reset}`);
	};
	const accounts: View = {
		id: 'accounts',
		section: 'accounts',
		url: () => paths.accounts,
		render(body, into) {
			const rows = (body as { data: AccountRow[] }).data;
			into.replaceChildren(scroll(table(['account', 'name', 'token', 'job board', 'own filters', 'rate limit'], rows.map((a) => [
				h('code', { class: 'nowrap' }, a.account_id), a.name, h('code', { class: 'nowrap' }, a.token), a.job_board ? 'yes' : 'no',
				a.filters.regions.length === 0 ? '—' : a.filters.regions.join(', '), budget(a.rate_limit),
			]))));
			// The journal's account filter offers the accounts there are (rebuilt only when they change: an open list stays open).
			const ids = rows.map((a) => a.account_id);
			if (ids.join('\n') === offered) return;
			offered = ids.join('\n');
			offerAccounts(ids);
		},
	};

	// The request journal: every filter is the route's (the URL's), and it answers only the newest rows shown.
	const pathFilter = byId<HTMLInputElement>('filter-path');
	const methodFilter = byId<HTMLSelectElement>('filter-method');
	const statusFilter = byId<HTMLSelectElement>('filter-status');
	const queryText = (query: Record<string, string | string[]>): string => {
		const search = new URLSearchParams();
		for (const [name, value] of Object.entries(query)) for (const one of Array.isArray(value) ? value : [value]) search.append(name, one);
		const text = search.toString();
		return text === '' ? '' : `?${text}`;
	};
	const filtered = () => FILTERS.some((name) => state[name] !== '');
	const requests: View = {
		id: 'requests',
		section: 'requests',
		url() {
			const query = new URLSearchParams();
			for (const name of FILTERS) if (state[name] !== '') query.set(name, state[name]);
			query.set('limit', String(config.journalRows + 1));
			return `${paths.requests}?${query}`;
		},
		render(body, into) {
			const { data, dropped } = body as { data: JournalRow[]; dropped: number };
			const shown = data.slice(-config.journalRows).reverse();
			const more = data.length > shown.length;
			byId('requests-count').textContent = (more ? `the newest ${shown.length} matching shown, older ones not` : `${shown.length} matching`) + (dropped > 0 ? `; ${dropped} older calls dropped by the journal's cap` : '');
			if (shown.length === 0) return into.replaceChildren(h('p', { class: 'empty' }, filtered() ? 'No call matches the filters.' : 'No calls yet.'));
			into.replaceChildren(scroll(table(['at (clock)', 'method', 'path', 'account', 'status', 'notes'], shown.map((entry) => [
				clockTime(entry.time_ms), entry.method, h('code', { class: 'cut', title: entry.path + queryText(entry.query) }, entry.path + queryText(entry.query)),
				entry.account_id ?? '—', badge(entry.status, entry.status === 0 ? 'dropped' : String(entry.status)),
				h('span', { class: 'notes' }, [entry.stub_id ? `stub ${entry.stub_id.slice(0, 8)}` : '', ...entry.warnings].filter((note) => note !== '').join('; ')),
			]), 'journal'), true));
		},
	};
	/** A filter changed on the page: a new history entry, then the journal asked again. */
	const filterControls = { path: pathFilter, method: methodFilter, status: statusFilter, account: accountFilter };
	for (const name of FILTERS) {
		filterControls[name].addEventListener('change', () => {
			const value = filterControls[name].value.trim();
			if (value === state[name]) return;
			go({ ...state, [name]: value });
		});
	}

	// Webhook deliveries: one timeline per event (its envelope's webhook_event_id), newest first.
	const attemptText = (a: Attempt, first: number): string => {
		// The engine's own words say how many and why.
		if (a.outcome === 'not_sent') return a.error ?? `not sent ×${a.count ?? 1}`;
		const parts = [`#${a.attempt}`, `+${duration(a.started_at - first)}`, a.status === null ? (a.error ?? 'no answer') : String(a.status), duration(a.duration_ms)];
		if (a.outcome === 'retry_scheduled' && a.retry_in_ms !== undefined) parts.push(`retry in ${duration(a.retry_in_ms)}`);
		if (a.outcome === 'failed') parts.push('failed');
		if (a.origin !== undefined && a.origin !== 'cycle') parts.push(a.origin);
		if (a.injected) parts.push('injected');
		return parts.join(' · ');
	};
	const deliveries: View = {
		id: 'deliveries',
		section: 'deliveries',
		url: () => `${paths.deliveries}?limit=${config.deliveryRows}`,
		render(body, into) {
			const log = (body as { data: Attempt[] }).data;
			const cut = log.length >= config.deliveryRows;
			const events = new Map<string, Attempt[]>();
			log.forEach((attempt, i) => {
				const key = attempt.webhook_event_id ?? `not sent ${i}`;
				const list = events.get(key);
				if (list) list.push(attempt);
				else events.set(key, [attempt]);
			});
			const tally = new Map<string, number>();
			for (const attempt of log) tally.set(attempt.outcome, (tally.get(attempt.outcome) ?? 0) + (attempt.count ?? 1));
			// Newest event first, each in the place its first attempt gave it: a retry or a redelivery moves no row.
			const shown = [...events.values()].reverse().slice(0, config.eventGroups);
			const notSent = log.filter((entry) => entry.outcome === 'not_sent').length;
			byId('deliveries-count').textContent = `${log.length - notSent} attempts, ${events.size - notSent} events` + (cut ? ` (the newest ${config.deliveryRows} attempts read)` : '') + (events.size > shown.length ? `; the newest ${shown.length} rows shown` : '');
			if (log.length === 0) return into.replaceChildren(h('p', { class: 'empty' }, 'No delivery yet: add a webhook setting (POST /api/webhooks), then run a cycle or send an event.'));
			const summary = h('div', { class: 'summary' }, ...['delivered', 'retry_scheduled', 'failed', 'not_sent']
				.filter((outcome) => tally.has(outcome))
				.map((outcome) => h('span', { class: `pill ${outcome}` }, `${outcome.replace('_', ' ')}: ${tally.get(outcome)}`)));
			const rows = shown.map((list) => {
				const [head] = list;
				const first = head.started_at;
				const id = head.webhook_event_id;
				const steps: HTMLElement[] = [];
				list.forEach((a, i) => {
					if (i > 0) steps.push(h('li', { class: 'gap' }, '→'));
					steps.push(h('li', { class: `attempt ${a.outcome}` }, attemptText(a, first)));
				});
				return h('tr', { class: 'event', 'data-event-id': id ?? '' },
					h('td', { class: 'type' }, head.event_type),
					h('td', {}, clockTime(first)),
					h('td', {}, id === null ? '—' : h('code', { title: id }, `${id.slice(0, 12)}…`)),
					h('td', {}, head.account_id, h('div', { class: 'url mono', title: head.url }, head.url)),
					h('td', { class: 'steps' }, h('ol', { class: 'attempts' }, ...steps)),
					h('td', {}, id === null ? null : h('button', { type: 'button', 'data-redeliver': id }, 'Redeliver')));
			});
			const head = h('thead', {}, h('tr', {}, ...['event', 'at (clock)', 'id', 'account → URL', 'attempts', ''].map((name) => h('th', {}, name))));
			into.replaceChildren(summary, scroll(h('table', { class: 'timeline' }, head, h('tbody', {}, ...rows)), true));
		},
	};
	byId('deliveries-view').addEventListener('click', (event) => {
		const button = (event.target as HTMLElement).closest('button[data-redeliver]');
		const id = button?.getAttribute('data-redeliver');
		if (id) void act(`Redeliver ${id}`, 'POST', paths.redeliver, { webhook_event_id: id }, (answer) => `Redelivery of ${id} queued (${(answer as { queued?: unknown[] }).queued?.length ?? 0}).`);
	});

	// Fault rules, the receivers' failure rules and WireMock's stubs.
	const faults: View = {
		id: 'faults',
		section: 'rules',
		url: () => paths.faults,
		render(body, into) {
			const rules = (body as { faults: FaultRow[] }).faults;
			if (rules.length === 0) return into.replaceChildren(h('p', { class: 'empty' }, 'No fault rule.'));
			into.replaceChildren(scroll(table(['path', 'method', 'does', 'rate', 'after', 'left'], rules.map((r) => [
				h('code', {}, r.path), r.method ?? 'any',
				[r.status !== undefined ? `status ${r.status}` : '', r.body !== undefined ? `body ${r.body}` : '', r.drop ? 'drops the connection' : '', r.latency_ms > 0 ? `waits ${r.latency_ms} ms` : '']
					.filter((part) => part !== '').join(', '),
				r.rate, r.after, r.remaining === null ? '∞' : `${r.remaining} of ${r.times ?? r.remaining}`,
			]))));
		},
	};
	const failures: View = {
		id: 'failures',
		section: 'rules',
		url: () => paths.failures,
		render(body, into) {
			const rules = (body as { failures: FailureRow[] }).failures;
			if (rules.length === 0) return into.replaceChildren(h('p', { class: 'empty' }, 'No failure rule.'));
			into.replaceChildren(scroll(table(['webhook or URL', 'fails as', 'left', 'reaches the receiver'], rules.map((r) => [
				h('code', {}, r.webhook_id ?? r.url ?? ''), r.failure === 'status' ? `status ${r.status ?? 500}` : r.failure, `${r.remaining} of ${r.fail_next}`, r.reach_receiver ? 'yes' : 'no',
			]))));
		},
	};
	const stubs: View = {
		id: 'stubs',
		section: 'rules',
		url: () => `${paths.stubs}?limit=${config.stubRows}`,
		render(body, into) {
			const { mappings, meta } = body as { mappings: StubRow[]; meta?: { total?: number } };
			const total = meta?.total ?? mappings.length;
			if (mappings.length === 0) return into.replaceChildren(h('p', { class: 'empty' }, 'No stub.'));
			const matcher = (r: StubRow['request']) => r?.url ?? r?.urlPath ?? (r?.urlPathPattern !== undefined ? `~ ${r.urlPathPattern}` : r?.urlPattern !== undefined ? `~ ${r.urlPattern}` : 'any URL');
			const list = scroll(table(['priority', 'method', 'URL', 'answers', 'name', 'id'], mappings.map((m) => [
				m.priority ?? 5, m.request?.method ?? 'ANY', h('code', {}, matcher(m.request)),
				m.response?.fault ?? badge(m.response?.status ?? 200), m.name ?? '', h('code', {}, m.id.slice(0, 8)),
			])));
			if (total > mappings.length) into.replaceChildren(list, h('p', { class: 'empty' }, `the first ${mappings.length} of ${total} stubs`));
			else into.replaceChildren(list);
		},
	};

	// The clock.
	const clock: View = {
		id: 'clock',
		section: 'clock',
		url: () => paths.clock,
		render(body, into) {
			const clockState = body as ClockState;
			// Another day on the mock's clock: every time drawn again (with or without its date).
			const day = Math.floor(clockState.now_ms / DAY_MS);
			if (day !== today) {
				today = day;
				for (const view of views) view.last = undefined;
			}
			const offset = Math.abs(clockState.offset_ms) < 1000 ? 'on the wall clock' : `${clockState.offset_ms > 0 ? '+' : '−'}${duration(Math.abs(clockState.offset_ms))} from the wall clock`;
			into.replaceChildren(h('div', { class: 'clock' },
				h('span', { class: 'now mono' }, clockState.now.replace('T', ' ')), h('span', { class: `pill ${clockState.frozen ? 'frozen' : 'running'}` }, clockState.frozen ? 'frozen' : 'running'),
				h('span', {}, offset),
				h('span', {}, `${clockState.timers} waiting` + (clockState.next_timer_in_ms === null ? '' : `, the next in ${duration(clockState.next_timer_in_ms)}`))));
		},
	};

	const views = [accounts, clock, deliveries, requests, faults, failures, stubs];

	/** Whether a section shows in the URL's view. */
	const shows = (section: string) => state.view === 'all' || state.view === section;
	/** What a poll reads: the views shown; the clock always (its day dates the times), the accounts with the journal (its account filter). */
	const polled = () => views.filter((view) => view === clock || shows(view.section) || (view === accounts && shows('requests')));

	/** Shows the URL's state: the sections of its view, its filters in their controls. */
	function apply(): void {
		if (state.view !== 'all' && !config.sections.includes(state.view)) {
			say(`No view "${state.view}" (views: all, ${config.sections.join(', ')}): showing all.`, 'error');
			state = { ...state, view: 'all' };
		}
		byId('main').dataset.view = state.view;
		for (const section of config.sections) byId(section).hidden = !shows(section);
		document.querySelectorAll<HTMLButtonElement>('#views button').forEach((button) => button.setAttribute('aria-pressed', String(button.dataset.view === state.view)));
		pathFilter.value = state.path;
		methodFilter.value = state.method;
		statusFilter.value = state.status;
		offerAccounts(offered === '' ? [] : offered.split('\n'));
		// A value the page does not offer (typed into the URL) is kept, and sent: the route's 400 says what is wrong.
		for (const [select, value] of [[methodFilter, state.method], [statusFilter, state.status]] as const) {
			if (select.value !== value) {
				select.append(h('option', { value }, value));
				select.value = value;
			}
		}
		requests.last = undefined;
	}
	/** A new state from the page's own controls: a history entry of its own, then shown and read. */
	function go(next: UrlState): void {
		state = next;
		history.pushState(null, '', urlOf(state));
		apply();
		void poll();
	}
	window.addEventListener('popstate', () => {
		state = readUrl();
		apply();
		void poll();
	});
	byId('views').addEventListener('click', (event) => {
		const view = (event.target as HTMLElement).closest('button')?.dataset.view;
		if (view !== undefined && view !== state.view) go({ ...state, view });
	});

	// Polling: one round at a time; the next at least pollMs later, and 4 times as long as a slow round took.
	const live = byId<HTMLInputElement>('live');
	const updated = byId('updated');
	let timer: number | undefined;
	let running = false;
	let again = false;
	async function poll(): Promise<void> {
		if (running) {
			again = true;
			return;
		}
		window.clearTimeout(timer);
		running = true;
		const started = performance.now();
		if (live.checked && document.visibilityState === 'visible') {
			// The clock first: its day dates the times the others show.
			await load(clock);
			await Promise.all(polled().filter((view) => view !== clock).map(load));
			updated.textContent = `updated ${new Date().toLocaleTimeString(undefined, { hour12: false })}`;
		}
		running = false;
		if (again) {
			again = false;
			return poll();
		}
		timer = window.setTimeout(() => void poll(), Math.max(config.pollMs, 4 * (performance.now() - started)));
	}
	live.addEventListener('change', () => void poll());
	document.addEventListener('visibilitychange', () => void poll());

	/** A changing call: JSON, as the control routes require of anything that changes the mock; then a poll shows its effect. */
	async function act(label: string, method: string, path: string, body: unknown, done: (answer: unknown) => string): Promise<void> {
		say(`${label}…`);
		try {
			const response = await fetch(path, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
			const text = await response.text();
			if (!response.ok) say(`${label}: ${response.status} ${messageOf(text)}`, 'error');
			else say(done(text === '' ? {} : JSON.parse(text)));
		} catch {
			say(`${label}: the mock does not answer.`, 'error');
		}
		await poll();
	}
	const eventsIn = (answer: unknown) => (answer as { events?: unknown[] }).events?.length ?? 0;
	const eventType = byId<HTMLSelectElement>('event-type');
	eventType.replaceChildren(...config.eventTypes.map((type) => h('option', { value: type }, type)));
	const on = (id: string, run: () => Promise<void>) => byId(id).addEventListener('click', () => void run());
	on('run-cycle', () => act('Run a cycle', 'POST', paths.process, {}, (answer) => `Cycle run: ${eventsIn(answer)} events.`));
	on('send-event', () => act(`Send ${eventType.value}`, 'POST', paths.events, { event_type: eventType.value }, (answer) => `${eventType.value}: ${eventsIn(answer)} events.`));
	on('reset', () => act('Reset', 'POST', paths.reset, {}, () => 'Back to the seed.'));
	on('clock-freeze', () => act('Freeze the clock', 'PUT', paths.clock, {}, () => 'Clock frozen.'));
	on('clock-advance', () => act('Advance the clock', 'PUT', paths.clock, { advance_ms: 1000 }, () => 'Clock advanced 1 s.'));
	on('clock-release', () => act('Back to the wall clock', 'DELETE', paths.clock, undefined, () => 'Clock back on the wall clock.'));
	on('clear-faults', () => act('Clear the fault rules', 'DELETE', paths.faults, undefined, () => 'Fault rules cleared.'));

	byId('where').textContent = location.host;
	apply();
	void poll();
}
