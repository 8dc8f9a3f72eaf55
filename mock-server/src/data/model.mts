/** The mock's records: the contract's wire types plus the private fields the service keeps beside them. */
import type { Collection, Job, Signal, Source } from '../base/contract.mts';
import type { StoredJob } from '../search/job-index.mts';

export interface Account {
	account_id: string;
	organization_id: string;
	name: string;
	token: string;
	/** Filterable job tags: every uploaded subscriber is subscribed to all of them. */
	job_tags: string[];
	/** Whether a job board is attached: without one (high-volume plans) the category and industry filters are unavailable (spec). */
	job_board: boolean;
	/** The account's own filters, set in the web application: which of its tracked sources' jobs it sees. */
	filters: AccountFilters;
}

/** An empty list does not filter. */
export interface AccountFilters {
	/** Only jobs in these regions (the jobs' `region`). */
	regions: string[];
}

/**
 * The signal type whose previous_value is a domain the source left. Here, not in store.mts, so that `record` (which
 * checks a clone's domain changes) starts without the store's libraries (@msw/data: about half a second of CPU).
 */
export const DOMAIN_CHANGE_TYPE = 'domain-url-change';

/** The one test of whether a job of a source the account tracks passes the account's own filters. */
export function passesAccountFilters(account: Account, job: Job): boolean {
	const { regions } = account.filters;
	return regions.length === 0 || regions.includes(job.region);
}

/** A collection with its owner and members (the wire record is `Collection`). */
export interface StoredCollection extends Collection {
	account_id: string;
	source_ids: string[];
}

/** A job as the store keeps it: the record and the lower-cased text search matches against (declared by the search index, which reads it). */
export type { StoredJob };

export interface Subscriber {
	account_id: string;
	email: string;
	tags: string[];
	created_at: number;
}

export interface Dataset {
	accounts: Account[];
	sources: Source[];
	collections: StoredCollection[];
	jobs: StoredJob[];
	signals: Signal[];
	subscribers: Subscriber[];
}

export interface DataSizes {
	seed: number;
	sources: number;
	jobs: number;
	signals: number;
	/** The demo account's token. */
	token: string;
}
