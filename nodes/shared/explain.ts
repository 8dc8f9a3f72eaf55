/**
 * The one way the nodes explain a failure the service gave for what was asked:
 * what happened (the message) and what to do next (the description), the same
 * in the action node and the triggers. The transport already explains what is
 * the same for every call (a refused token, the rate limit, an unreachable
 * service, an invalid answer: transport/errors.ts); the steps here depend on what
 * the user asked for.
 */
import { NodeApiError, type INode } from 'n8n-workflow';

export interface NextStep {
	/** What happened, when the service's own words do not say it; absent: the service's message stays. */
	message?: string;
	/** What to do next. */
	description: string;
}

/** A 404 for what was asked, with its next step; any other failure goes on as it came. */
export function explainNotFound(node: INode, error: unknown, step: NextStep, itemIndex?: number): unknown {
	if (!(error instanceof NodeApiError && error.httpCode === '404')) return error;
	return explained(node, error, step, itemIndex);
}

/** The failure said as `step` says it; only the service's (already secret-free) words travel with it. */
export function explained(node: INode, error: NodeApiError, step: NextStep, itemIndex?: number): NodeApiError {
	const said = error.description ?? error.message;
	return new NodeApiError(node, { status: Number(error.httpCode), message: said }, {
		httpCode: error.httpCode ?? undefined,
		itemIndex,
		message: step.message ?? error.message,
		description: step.description,
	});
}

/** The next steps after a 404, by what was asked for. */
export const NOT_FOUND = {
	signals: {
		description:
			'The service does not know this group, category or type. Pick one from the lists, or check the ID or name given by expression (ids such as "it" or "cash-flow-constraints", or names such as "IT" or "Cash Flow Constraints").',
	},
	job: (jobId: string): NextStep => ({
		description: `Check the Job ID ("${jobId}"). The job may also have been deleted: the API no longer returns deleted jobs. Job → Search or Job → Get Many for Source list the current job IDs.`,
	}),
	source: (by: 'domain' | 'id', tried: string[]): NextStep => ({
		message: `The service tracks no company with ${by === 'domain' ? `the domain ${tried.join(' or ')}` : `the source ID ${tried.join(' or ')}`}`,
		description:
			by === 'domain'
				? "Give the company's main website domain (its url_source, as Source → Get Many in Collection lists it), or add the company to one of your collections in the service's web application and run again. With a source ID, switch Source to By ID."
				: "Source IDs are the source_id of Source → Get Many in Collection or of a signal; check the ID, or switch Source to Domain and give the company's domain.",
	}),
} satisfies Record<string, NextStep | ((...args: never[]) => NextStep)>;
