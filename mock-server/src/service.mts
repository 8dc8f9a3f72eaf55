/**
 * Wires the mock: data, the HTTP guards, the handlers, the processing cycle
 * (on demand and on a timer), the webhooks module and the optional state
 * folder, the request journal and CORS. reset() is the single place that
 * returns everything to the seed state.
 */
import type { HttpHandler } from 'msw';
import { addData } from './data/data-file.mts';
import { generateDataset } from './data/generate.mts';
import type { Account } from './data/model.mts';
import { Store } from './data/store.mts';
import { Cors } from './http/cors.mts';
import { Faults } from './http/faults.mts';
import { Journal, type JournalAnswer, type JournalFilter } from './http/journal.mts';
import { RateLimiter } from './http/rate-limit.mts';
import type { HandlerContext } from './http/route.mts';
import { withCors } from './http/with-cors.mts';
import { collectionHandlers } from './handlers/collections.mts';
import { controlHandlers } from './handlers/control.mts';
import { jobHandlers } from './handlers/jobs.mts';
import { openApiHandler } from './handlers/openapi.mts';
import { signalHandlers } from './handlers/signals.mts';
import { sourceHandlers } from './handlers/sources.mts';
import { subscriberHandlers } from './handlers/subscribers.mts';
import { webhookHandlers } from './handlers/webhooks.mts';
import { resolveOptions, type MockServiceOptions } from './options.mts';
import { DEFAULT_CYCLE, Processor, type ChosenChange, type CycleSizes } from './process/cycle.mts';
import { DataGate } from './process/cycle-work.mts';
import { Work } from './search/work.mts';
import { attachState } from './state/attach-state.mts';
import { createWebhooks, type CycleEvent } from './webhooks/index.mts';

const RATE_WINDOW_MS = 60_000;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function createMockService(input: MockServiceOptions = {}) {
	const options = resolveOptions(input);
	const cors = new Cors(options.corsOrigin);
	const seed = generateDataset(options);
	const data = options.data === null ? undefined : await addData(seed, options.data);
	const dataset = data?.dataset ?? seed;
	const store = await Store.create(dataset);
	const context: HandlerContext = {
		store,
		gate: new DataGate(),
		limiter: new RateLimiter(options.rateLimit, RATE_WINDOW_MS * options.timeScale, Date.now, options.rateLimitHeaders),
		faults: new Faults(),
		journal: new Journal(store),
	};
	const organizationIdOf = (accountId: string) =>
		store.accountList().find((a) => a.account_id === accountId)?.organization_id ?? accountId;
	const webhooks = createWebhooks({
		organizationIdOf,
		timeScale: options.timeScale,
		nowSeconds,
		maxQueued: options.maxQueuedDeliveries,
		maxQueuedPerAccount: options.maxQueuedDeliveriesPerAccount,
	});
	const dataSet = { seed: options.seed, sources: options.sources, jobs: options.jobs, signals: options.signals, ...(data && { data: data.fingerprint }) };
	const state = options.stateDir === null
		? undefined
		: await attachState(options.stateDir, dataSet, { store, settings: webhooks.settings, faults: context.faults, engine: webhooks.engine });
	const bounds = { seedJobs: dataset.jobs.length, seedSignals: dataset.signals.length, maxCreated: options.maxCreatedRecords };
	let processor = new Processor(store, options.seed, nowSeconds, bounds, state?.position);
	/**
	 * A cycle or a chosen change, alone on the data (no reader sees half of it), a share of work per turn.
	 * Its writes and the processor's new position are saved in one transaction; its events are queued for delivery.
	 */
	const change = (make: (work: Work) => Promise<CycleEvent[]>): Promise<CycleEvent[]> =>
		context.gate.writingAlone(async () => {
			const work = new Work();
			state?.hold();
			try {
				store.deferLists();
				const events = await make(work).finally(() => store.applyLists(work));
				await store.compactIndex(work);
				state?.savePosition(processor.position());
				await webhooks.engine.dispatch(events, work);
				return events;
			} finally {
				await state?.release(work);
			}
		});
	let closed = false;
	// The next timed cycle is set when one ends: cycles slower than the interval do not pile up.
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timedCycle = (): void => {
		if (closed) return;
		timer = setTimeout(() => {
			service.processCycle().then(timedCycle, (error: unknown) => {
				console.error('job-signals-mock: a timed processing cycle failed:', error);
				timedCycle();
			});
		}, options.cycleInterval * 1000);
		// The standalone server keeps the process alive; in-process, the timer alone must not.
		timer.unref();
	};
	if (options.cycleInterval > 0) timedCycle();

	const service = {
		options,
		store,
		webhooks,
		/** What the state folder put back on start (undefined without one). */
		restored: state?.restored,
		/** The state folder's saving: its folder, whether it still saves, and the error that stopped it (GET /__mock/state). */
		persistence: () => state?.persistence() ?? { state_dir: null, persisting: false, error: null },
		/** The demo accounts, demo first. */
		accounts: (): Account[] => store.accountList(),
		/** Back to the seed: data, rate-limit budgets, faults, webhook settings and deliveries, the request journal, and the state folder's changes. */
		async reset(): Promise<void> {
			await context.gate.writingAlone(async () => {
				await store.load(dataset);
				context.limiter.reset();
				context.faults.clear();
				context.journal.clear();
				webhooks.reset();
				processor = new Processor(store, options.seed, nowSeconds, bounds);
				state?.clear();
			});
		},
		/**
		 * One processing cycle (over one source when `sourceId` is given); its events
		 * are queued for webhook delivery and returned. Throws UnknownRecord for an unknown source.
		 */
		processCycle(sizes: CycleSizes = DEFAULT_CYCLE, sourceId?: string): Promise<CycleEvent[]> {
			return change((work) => processor.run(work, sizes, sourceId));
		},
		/** One chosen change and its events, delivered like a cycle's. Rejects with UnknownRecord for an unknown source or job. */
		emitEvent(chosen: ChosenChange): Promise<CycleEvent[]> {
			return change((work) => processor.one(chosen, work));
		},
		/** Stops the cycle timer, cancels queued webhook deliveries (their timers would keep the process alive), closes the state folder. */
		close(): void {
			closed = true;
			clearTimeout(timer);
			webhooks.reset();
			state?.close();
		},
		/**
		 * The request journal: the service calls made since the last reset, oldest first, and how many
		 * older ones were dropped (see http/journal.mts). Throws JournalFilterError on a bad filter.
		 */
		requests: (filter: JournalFilter = {}): JournalAnswer => context.journal.read(filter),
		/** The CORS policy (the standalone server puts it on the answers it makes itself). */
		cors,
		/** The routes themselves, without CORS (which methods a path serves is read from them). */
		routes: [] as HttpHandler[],
		/** What to hand msw's setupServer (or getResponse): the routes behind CORS. */
		handlers: [] as HttpHandler[],
	};
	service.routes = [
		...controlHandlers({ ...service, faults: context.faults, subscribersOf: (accountId) => store.subscribersOf(accountId), deliveries: () => webhooks.engine.deliveries() }),
		openApiHandler(),
		...signalHandlers(context),
		...jobHandlers(context),
		...sourceHandlers(context),
		...collectionHandlers(context),
		...subscriberHandlers(context, nowSeconds),
		...webhookHandlers(context, webhooks.settings, nowSeconds),
	];
	service.handlers = [withCors(cors, service.routes)];
	return service;
}

export type MockService = Awaited<ReturnType<typeof createMockService>>;
