/**
 * One change to the store's data, as a state folder saves it: the record's new value, null once deleted.
 * `forget`: the record was created after the seed and is gone, so nothing about it need be kept.
 */
import type { Job, Signal, Source } from '../../../contract/schemas';
import type { Subscriber } from './model.mts';

export type StoreChange =
	| { kind: 'job'; id: string; value: Job | null; forget?: boolean }
	| { kind: 'source'; id: string; value: Source }
	| { kind: 'signal'; id: string; value: Signal | null; forget?: boolean }
	| { kind: 'subscriber'; id: string; value: Subscriber };
