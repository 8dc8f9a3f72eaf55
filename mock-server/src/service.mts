/**
 * Wires the mock: data, the HTTP guards, the handlers, the cycle
 * (on demand and on a timer), the webhooks module and the optional state
 * folder, the request journal and CORS. reset() is the single place that
 * returns everything to the seed state.
 */
import type { HttpHandler } from 'msw';
import { MockClock, type ClockTimer } from './base/clock.mts';
import { addData } from './data/data-file.mts';
import { generateDataset } from './data/generate.mts';
import type { Account } from './data/model.mts';
import { Store } from './data/store.mts';
import { Cors } from './http/cors.mts';
import { Faults } from './http/faults.mts';
import { Journal, journalBodyOf, type JournaledRequest, type JournalAnswer, type JournalFilter } from './http/journal.mts';
import { RateLimiter } from './http/rate-limit.mts';
import { bearerAccountId, type HandlerContext } from './http/route.mts';
import { withCors } from './http/with-cors.mts';
import { collectionHandlers } from './handlers/collections.mts';
import { controlHandlers } from './handlers/control.mts';
import { jobHandlers } from './handlers/jobs.mts';
import { openApiHandlers } from './handlers/openapi.mts';
import { signalHandlers } from './handlers/signals.mts';
import { sourceHandlers } from './handlers/sources.mts';
import { subscriberHandlers } from './handlers/subscribers.mts';
import { webhookHandlers } from './handlers/webhooks.mts';
import { resolveOptions, type MockServiceOptions } from './options.mts';
import { CycleRunner, seedSerial, type ChosenChange, type CycleSizes } from './cycles/cycle.mts';
import { cycleSizes } from './cycles/control-bodies.mts';
import { DataGate } from './data/data-gate.mts';
import { Work } from './base/work.mts';
import { attachState } from './state/attach-state.mts';
import { createWebhooks, type CycleEvent } from './webhooks/index.mts';
import { createWireMock } from './wiremock/index.mts';

const RATE_WINDOW_MS = 60_000;

export async function createMockService(input: MockServiceOptions = {}) {
	const options = resolveOptions(input);
	// Every time the mock hands out and every wait it makes reads this one clock (clock.mts).
	const clock = new MockClock();
	const nowSeconds = () => clock.nowSeconds();
	const cors = new Cors(options.corsOrigin);
	const seed = generateDataset(options);
	const data = options.data === null ? undefined : await addData(seed, options.data);
	const dataset = data?.dataset ?? seed;
	const store = await Store.create(dataset);
	const context: HandlerContext = {
		store,
		gate: new DataGate(),
		limiter: new RateLimiter(options.rateLimit, RATE_WINDOW_MS * options.timeScale, () => clock.elapsed(), options.rateLimitHeaders),
		faults: new Faults(),
		journal: new Journal(store, () => clock.now()),
		strictQuery: options.strictQuery,
	};
	// WireMock's stubs and verification (wiremock/): stubs answer before the routes, over the same journal.
	const wiremock = createWireMock({ journal: context.journal, accounts: store, cors });
	const organizationIdOf = (accountId: string) =>
		store.accountList().find((a) => a.account_id === accountId)?.organization_id ?? accountId;
	const webhooks = createWebhooks({
		organizationIdOf,
		timeScale: options.timeScale,
		clock,
		maxQueued: options.maxQueuedDeliveries,
		maxQueuedPerAccount: options.maxQueuedDeliveriesPerAccount,
	});
	const dataSet = { seed: options.seed, sources: options.sources, jobs: options.jobs, signals: options.signals, ...(data && { data: data.fingerprint }) };
	const state = options.stateDir === null
		? undefined
		: await attachState(options.stateDir, dataSet, { store, settings: webhooks.settings, faults: context.faults, engine: webhooks.engine });
	const bounds = {
		seedJobs: seedSerial(dataset.jobs.map((j) => j.job.job_id), 'job_'),
		seedSignals: seedSerial(dataset.signals.map((s) => s.signal_id), 'sig_'),
		maxCreated: options.maxCreatedRecords,
	};
	let cycleRunner = new CycleRunner(store, options.seed, nowSeconds, bounds, state?.position);
	/**
	 * A cycle or a chosen change, alone on the data (no reader sees half of it), a share of work per turn.
	 * Its writes and the cycle runner's new position are saved in one transaction; its events are queued for delivery.
	 */
	const change = (make: (work: Work) => Promise<CycleEvent[]>): Promise<CycleEvent[]> =>
		context.gate.writingAlone(async () => {
			const work = new Work();
			state?.hold();
			try {
				store.deferLists();
				const events = await make(work).finally(() => store.applyLists(work));
				await store.compactIndex(work);
				state?.savePosition(cycleRunner.position());
				await webhooks.engine.dispatch(events, work);
				return events;
			} finally {
				await state?.release(work);
			}
		});
	let closed = false;
	// The next timed cycle is set when one ends: cycles slower than the interval do not pile up.
	let timer: ClockTimer | undefined;
	const timedCycle = (): void => {
		if (closed) return;
		// On the clock: frozen, timed cycles wait for it to be advanced. Unref: the standalone server
		// keeps the process alive; in-process, the timer alone must not.
		timer = clock.setTimeout(() => {
			service.processCycle().then(timedCycle, (error: unknown) => {
				console.error('job-signals-mock: a timed cycle failed:', error);
				timedCycle();
			});
		}, options.cycleInterval * 1000, { unref: true });
	};
	if (options.cycleInterval > 0) timedCycle();

	const service = {
		options,
		store,
		webhooks,
		/** The clock of every date and wait (freeze, advance, release: clock.mts); back to the wall clock on reset. */
		clock,
		/** The receiver knobs: redeliver, sendCopies, reorder, failNext, deliveryFailures, clearDeliveryFailures (webhooks/index.mts). */
		...webhooks.knobs,
		/** What the state folder put back on start (undefined without one). */
		restored: state?.restored,
		/** The state folder's saving: its folder, whether it still saves, and the error that stopped it (GET /__mock/state). */
		persistence: () => state?.persistence() ?? { state_dir: null, persisting: false, error: null },
		/** The demo accounts, demo first. */
		accounts: (): Account[] => store.accountList(),
		/** Back to the seed: data, rate-limit budgets, faults, webhook settings and deliveries, the request journal, the WireMock stubs, and the state folder's changes. */
		async reset(): Promise<void> {
			await context.gate.writingAlone(async () => {
				await store.load(dataset);
				context.limiter.reset();
				context.faults.clear();
				context.journal.clear();
				wiremock.stubs.reset();
				webhooks.reset();
				clock.release();
				cycleRunner = new CycleRunner(store, options.seed, nowSeconds, bounds);
				state?.clear();
			});
		},
		/**
		 * One cycle (over one source when `sourceId` is given); its events
		 * are queued for webhook delivery and returned. Each count left out keeps its default (DEFAULT_CYCLE), as
		 * over HTTP. Rejects with a RangeError for a bad count, with UnknownRecord for an unknown source.
		 */
		async processCycle(sizes: Partial<CycleSizes> = {}, sourceId?: string): Promise<CycleEvent[]> {
			const counts = cycleSizes(sizes);
			return change((work) => cycleRunner.run(work, counts, sourceId));
		},
		/** One chosen change and its events, delivered like a cycle's. Rejects with UnknownRecord for an unknown source or job. */
		emitEvent(chosen: ChosenChange): Promise<CycleEvent[]> {
			return change((work) => cycleRunner.one(chosen, work));
		},
		/** Stops the cycle timer, cancels queued webhook deliveries (their timers would keep the process alive), closes the state folder. */
		close(): void {
			closed = true;
			clock.clearTimeout(timer);
			webhooks.reset();
			state?.close();
		},
		/**
		 * The request journal: the service calls made since the last reset, oldest first, and how many
		 * older ones were dropped (see http/journal.mts). Throws JournalFilterError on a bad filter.
		 * `requests.find(pattern)` and `requests.count(pattern)`: WireMock's verification over it (MappingError for a bad pattern).
		 */
		requests: Object.assign((filter: JournalFilter = {}): JournalAnswer => context.journal.read(filter), wiremock.verification),
		/**
		 * Journals a request the standalone server answered itself, no route or stub (an unknown path, a 405, a 413, a stub
		 * path's 404 diff): with its token's account, and its body's start (`body`: as read; undefined when not read).
		 */
		journalAnswered(request: JournaledRequest, url: URL, response: Response, body: Uint8Array | undefined): void {
			context.journal.record(request, url, bearerAccountId(request, store), response, [], body === undefined ? null : journalBodyOf(body));
		},
		/** WireMock's stubs in-process: add, update, remove, get, list, reset, scenarios (wiremock/index.mts). */
		stubs: wiremock.stubs,
		/** The /__admin routes and the stubs' answers (the standalone server serves a stubbed path the service does not have). */
		wiremock,
		/** The CORS policy (the standalone server puts it on the answers it makes itself). */
		cors,
		/** The routes themselves, without CORS (which methods a path serves is read from them). */
		routes: [] as HttpHandler[],
		/** What to hand msw's setupServer (or getResponse): the routes behind CORS. */
		handlers: [] as HttpHandler[],
	};
	service.routes = [
		...controlHandlers({
			...service,
			faults: context.faults,
			subscribersOf: (accountId) => store.subscribersOf(accountId),
			deliveries: (newest) => webhooks.engine.deliveries(newest),
			rateBudget: (accountId) => context.limiter.budget(accountId),
		}),
		...openApiHandlers(),
		...signalHandlers(context),
		// Sources first: /v2/sources/id/jobs is the source with id "jobs" (a domain always has a dot), not the jobs of a domain "id".
		...sourceHandlers(context),
		...jobHandlers(context),
		...collectionHandlers(context),
		...subscriberHandlers(context, nowSeconds),
		...webhookHandlers(context, webhooks.settings, nowSeconds),
	];
	// The admin routes after the service's: they cost the service's requests nothing.
	service.handlers = [withCors(cors, [...service.routes, ...wiremock.routes], wiremock)];
	return service;
}

export type MockService = Awaited<ReturnType<typeof createMockService>>;
