/** The list the trigger's parameters select, built with the action node's path and parameter checks. */
import type { IPollFunctions } from 'n8n-workflow';
import { searchQuery } from '../shared/job-search';
import { readSignalSelection } from '../shared/signal-filters';
import { sourceRefFrom } from '../shared/source-locator';
import { jobSearchFeed, signalsFeed, sourceJobsFeed, type Feed } from './feeds';
import type { PollEvent } from './properties';
import { sourceJobsPath } from './source-path';

/** The feed, its key naming the event too: switching events starts afresh. */
export async function feedFor(context: IPollFunctions, event: PollEvent): Promise<Feed> {
	const feed = await listFor(context, event);
	return { ...feed, key: JSON.stringify([event, feed.key]) };
}

async function listFor(context: IPollFunctions, event: PollEvent): Promise<Feed> {
	if (event === 'newSignal') {
		const { path, filters } = readSignalSelection(context.getNode(), (name, fallback) => context.getNodeParameter(name, fallback));
		return signalsFeed(path, filters);
	}
	if (event === 'newJob' && context.getNodeParameter('jobsFrom', 'source') === 'search') {
		return jobSearchFeed(searchQuery(context.getNode(), (name, fallback) => context.getNodeParameter(name, fallback)));
	}
	const source = sourceRefFrom(context.getNode(), context.getNodeParameter('source', undefined, { extractValue: false }));
	return sourceJobsFeed(await sourceJobsPath(context, source), source);
}
