/** What handlers need from the service, kept apart so handler files never import the wiring. */
import type { Store } from './data/store';
import type { Faults } from './http/faults';
import type { Journal } from './http/journal';
import type { RateLimiter } from './http/rate-limit';

export interface ServiceContext {
	readonly store: Store;
	readonly limiter: RateLimiter;
	readonly faults: Faults;
	readonly journal: Journal;
}
