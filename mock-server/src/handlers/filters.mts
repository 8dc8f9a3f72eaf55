/**
 * GET /jobs/filters: the options personalized to the account (from the jobs it sees and their
 * sources); without a job board no categories and no industry tags (CHOICES.unavailableFilterStatus).
 */
import { type Filters, JOB_CATEGORIES } from '../base/contract.mts';
import { inSlices } from '../base/work.mts';
import type { Account } from '../data/model.mts';
import type { HandlerContext } from '../http/route.mts';

export function accountFilters({ store }: HandlerContext, account: Account): Promise<Filters> {
	// Cached as a promise: the same request asked again while the scan runs waits for that scan.
	return store.cached(`filters|${account.account_id}`, async () => {
		const locations = new Set<string>();
		const categories = new Set<string>();
		const industries = new Set<string>();
		// A slice per turn: the scan of 100,000 jobs held the loop 30–60 ms after every data change.
		await inSlices(store.jobsOf(account.account_id), ({ job }) => {
			locations.add(job.location);
			locations.add(job.region);
			for (const c of job.categories) categories.add(c);
			industries.add(job.source_id);
		});
		const industryTags = new Set<string>();
		for (const id of industries) for (const tag of store.sources.get(id)?.industry_tags ?? []) industryTags.add(tag);
		return {
			locations: [...locations].sort(),
			job_tags: [...account.job_tags],
			industry_tags: account.job_board ? [...industryTags].sort() : [],
			categories: account.job_board ? JOB_CATEGORIES.filter((c) => categories.has(c)) : [],
		};
	});
}
