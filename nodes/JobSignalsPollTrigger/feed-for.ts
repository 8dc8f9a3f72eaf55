/** The list the trigger's parameters select, built with the action node's path and parameter checks. */
import { NodeApiError, type IPollFunctions } from 'n8n-workflow';
import { API_PATHS } from '../shared/contract';
import { searchQuery } from '../shared/job-search';
import { signalsPathFor } from '../shared/signal-filters';
import { sourceRefFrom, unknownSourceError } from '../shared/source-locator';
import { jobSearchFeed, signalsFeed, sourceJobsFeed, type Feed } from './feeds';
import type { PollEvent } from './properties';
import { sourceJobsPath } from './source-path';

const text = (context: IPollFunctions, name: string) => String(context.getNodeParameter(name, '') ?? '').trim();

/** The feed, its key naming the event too: switching events starts afresh. */
export async function feedFor(context: IPollFunctions, event: PollEvent): Promise<Feed> {
	const feed = await listFor(context, event);
	return { ...feed, key: JSON.stringify([event, feed.key]) };
}

async function listFor(context: IPollFunctions, event: PollEvent): Promise<Feed> {
	if (event === 'newSignal') {
		const group = text(context, 'group');
		const category = text(context, 'category');
		const type = category === '' ? '' : text(context, 'type');
		const path = signalsPathFor(context.getNode(), group, category, type);
		return signalsFeed(path, {
			direct_only: context.getNodeParameter('directOnly', true) as boolean,
			active_only: context.getNodeParameter('activeOnly', true) as boolean,
		});
	}
	if (event === 'newJob' && context.getNodeParameter('jobsFrom', 'source') === 'search') {
		return jobSearchFeed(API_PATHS.jobSearch, searchQuery(context.getNode(), (name, fallback) => context.getNodeParameter(name, fallback)));
	}
	const source = sourceRefFrom(context.getNode(), context.getNodeParameter('source', undefined, { extractValue: false }));
	const feed = sourceJobsFeed(await sourceJobsPath(context, source));
	// A company the service does not track: the action node's error, which says what to do next, not the bare 404.
	return {
		...feed,
		fetch: async (ctx, position) =>
			await feed.fetch(ctx, position).catch(async (error: unknown) =>
				await Promise.reject(error instanceof NodeApiError && error.httpCode === '404' ? unknownSourceError(ctx.getNode(), source, error) : error),
			),
	};
}
