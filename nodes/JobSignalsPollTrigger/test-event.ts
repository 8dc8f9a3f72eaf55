/**
 * Fetch Test Event (manual mode): the newest item of the list, shaped as the node's Output says, the poll state
 * untouched. An empty list is an error that says why and what to do: n8n's own answer to a poll that returns
 * nothing is a toast ("No … data found … Please create one"), twice, which says neither; and a poll has no
 * execution hints to carry it.
 */
import { NodeOperationError, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';
import { searchQuery } from '../shared/job-search';
import { nothingMatched, searchQueryHints } from '../shared/search-syntax';
import type { Feed } from './feeds';
import { shapePolled, type PollEvent } from './properties';

export async function testEvent(context: IPollFunctions, event: PollEvent, feed: Feed): Promise<INodeExecutionData[][]> {
	const page = await feed.reader(context).read(feed.sample);
	if (page.items.length > 0) return [shapePolled(context, event, [page.items[0].item])];
	const { message, description } = emptyList(context, event);
	throw new NodeOperationError(context.getNode(), message, { description });
}

function emptyList(context: IPollFunctions, event: PollEvent): { message: string; description: string } {
	if (event === 'newSignal') {
		return {
			message: 'No signal matches these filters yet',
			description: 'The service has no signal of this group, category and type that passes Direct Only and Active Only. Turn those off to include inferred or inactive signals, or choose a wider category; new signals start the workflow once it is published.',
		};
	}
	if (event === 'newJob' && context.getNodeParameter('jobsFrom', 'source') === 'search') {
		const filters = searchQuery(context.getNode(), (name, fallback) => context.getNodeParameter(name, fallback));
		const found = nothingMatched(filters);
		const hints = searchQueryHints(filters).map((hint) => ` ${hint.message}`).join('');
		return { message: found.message, description: `${found.description}${hints}` };
	}
	return {
		message: 'This company has no job listed right now',
		description: 'The service lists no job for this source. Check the Source, or choose Jobs From: A Job Search; its new jobs start the workflow once it is published.',
	};
}
