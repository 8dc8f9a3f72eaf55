/** The account's own filters (AccountFilters): the one test of whether a tracked source's job passes them. */
import type { Job } from '../../../contract/schemas';
import type { Account } from './model.mts';

export function passesAccountFilters(account: Account, job: Job): boolean {
	const { regions } = account.filters;
	return regions.length === 0 || regions.includes(job.region);
}
