/**
 * Wires the mock: data, the HTTP guards, the handlers, the processing cycle
 * and the webhooks module. reset() is the single place that returns
 * everything to the seed state.
 */
import type { HttpHandler } from 'msw';
import { generateDataset } from './data/generate';
import type { Account } from './data/model';
import { Store } from './data/store';
import { authenticate } from './http/auth';
import { Faults } from './http/faults';
import { RateLimiter } from './http/rate-limit';
import { apiError } from './http/respond';
import { collectionHandlers } from './handlers/collections';
import { controlHandlers } from './handlers/control';
import { jobHandlers } from './handlers/jobs';
import { signalHandlers } from './handlers/signals';
import { sourceHandlers } from './handlers/sources';
import { subscriberHandlers } from './handlers/subscribers';
import { resolveOptions, type MockServiceOptions } from './options';
import { Processor } from './process/cycle';
import type { ServiceContext } from './service-context';
import { createWebhooks, type CycleEvent } from './webhooks/index';

const RATE_WINDOW_MS = 60_000;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function createMockService(input: MockServiceOptions = {}) {
	const options = resolveOptions(input);
	const dataset = generateDataset(options);
	const store = await Store.create(dataset);
	const context: ServiceContext = {
		store,
		limiter: new RateLimiter(options.rateLimit, RATE_WINDOW_MS * options.timeScale),
		faults: new Faults(),
	};
	const organizationIdOf = (accountId: string) =>
		store.accountList().find((a) => a.account_id === accountId)?.organization_id ?? accountId;
	const webhooks = createWebhooks({ organizationIdOf, timeScale: options.timeScale, nowSeconds, faults: context.faults });
	let processor = new Processor(store, options.seed, nowSeconds);

	const service = {
		options,
		store,
		webhooks,
		/** The demo accounts, demo first. */
		accounts: (): Account[] => store.accountList(),
		/** Back to the seed: data, rate-limit budgets, faults, webhook settings and deliveries. */
		async reset(): Promise<void> {
			await store.load(dataset);
			context.limiter.reset();
			context.faults.clear();
			webhooks.reset();
			processor = new Processor(store, options.seed, nowSeconds);
		},
		/** One processing cycle; its events are queued for webhook delivery and returned. */
		processCycle(): CycleEvent[] {
			const events = processor.run();
			webhooks.engine.dispatch(events);
			return events;
		},
		/** Cancels queued webhook deliveries (their timers would keep the process alive). */
		close(): void {
			webhooks.reset();
		},
		handlers: [] as HttpHandler[],
	};
	service.handlers = [
		...controlHandlers({ ...service, faults: context.faults, subscribersOf: (accountId) => store.subscribersOf(accountId) }),
		...signalHandlers(context),
		...jobHandlers(context),
		...sourceHandlers(context),
		...collectionHandlers(context),
		...subscriberHandlers(context, nowSeconds),
		...webhooks.handlers(async (request) => {
			const account = authenticate(request, store);
			return account instanceof Response ? account : { accountId: account.account_id };
		}, apiError),
	];
	return service;
}

export type MockService = Awaited<ReturnType<typeof createMockService>>;
