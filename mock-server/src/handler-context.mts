/** What handlers need from the service, kept apart so handler files never import the wiring. */
import type { Store } from './data/store.mts';
import type { DataGate } from './process/data-gate.mts';
import type { Faults } from './http/faults.mts';
import type { Journal } from './http/journal.mts';
import type { RateLimiter } from './http/rate-limit.mts';

export interface HandlerContext {
	readonly store: Store;
	/** Service requests read the data through it, so none sees half a processing cycle. */
	readonly gate: DataGate;
	readonly limiter: RateLimiter;
	readonly faults: Faults;
	readonly journal: Journal;
}
