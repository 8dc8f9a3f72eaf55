/**
 * GET /jobs/filters: the options personalized to the account (from the jobs it sees and their
 * sources); without a job board no categories and no industry tags (CHOICES.unavailableFilterStatus).
 */
import { JOB_CATEGORIES } from '../../../contract/job-categories';
import type { Filters } from '../../../contract/schemas';
import type { Account } from '../data/model';
import type { HandlerContext } from '../handler-context.ts';

export function accountFilters({ store }: HandlerContext, account: Account): Filters {
	return store.cached(`filters|${account.account_id}`, () => {
		const locations = new Set<string>();
		const categories = new Set<string>();
		const industries = new Set<string>();
		for (const { job } of store.jobsOf(account.account_id)) {
			locations.add(job.location);
			locations.add(job.region);
			for (const c of job.categories) categories.add(c);
			industries.add(job.source_id);
		}
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
