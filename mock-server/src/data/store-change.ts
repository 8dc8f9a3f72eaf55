/** One change to the store's data, as a state folder saves it: the record's new value, null once deleted. */
import type { Job, Signal, Source } from '../../../contract/schemas';
import type { Subscriber } from './model';

export type StoreChange =
	| { kind: 'job'; id: string; value: Job | null }
	| { kind: 'source'; id: string; value: Source }
	| { kind: 'signal'; id: string; value: Signal }
	| { kind: 'subscriber'; id: string; value: Subscriber };
