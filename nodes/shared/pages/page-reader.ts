/**
 * The one page reader: a walk down one paged list, a page at a time, for the
 * action node's Return All and Limit (collect.ts) and the Poll Trigger's walks.
 * Every page is held to the contract (the transport) and to the query that asked
 * for it (the list's check); a page the walk already read (a cursor or page
 * number that comes back) stops it, since it would repeat items or never end.
 */
import type { IDataObject } from 'n8n-workflow';
import type { AnswerOfEndpoint, EndpointName } from '../contract';
import type { ServiceRequest } from '../transport/answers';
import { invalidAnswerError } from '../transport/errors';
import { redactText, secretsOf } from '../transport/redact';
import { serviceCredentials, serviceRequest, type ServiceContext } from '../transport/request';
import type { FirstPage, PageBody, PagedAnswer, PagedList, PageQuery } from './list-kinds';

/** An endpoint whose answer is a page. */
export type PagedEndpointName = { [E in EndpointName]: AnswerOfEndpoint<E> extends PagedAnswer ? E : never }[EndpointName];

/** A walk's list: the request of its pages (without their query) and the kind of list its endpoint answers (list-kinds.ts). */
export interface PagedRequest<E extends PagedEndpointName> {
	request: Omit<ServiceRequest<E>, 'qs' | 'page'>;
	list: PagedList<AnswerOfEndpoint<E>>;
}

export interface Page<N extends PagedAnswer> {
	query: PageQuery;
	body: PageBody<N>;
	items: IDataObject[];
	/** The next page's query; undefined after the last page. */
	next?: PageQuery;
}

export class PageReader<E extends PagedEndpointName, N extends PagedAnswer = AnswerOfEndpoint<E>> {
	private readonly asked = new Set<string>();
	private firstPage: FirstPage<N> | undefined;

	constructor(
		private readonly context: ServiceContext,
		private readonly paged: PagedRequest<E>,
	) {}

	get list(): PagedList<N> {
		return this.paged.list as unknown as PagedList<N>;
	}

	/** The first page this walk read, once it has read one. */
	get first(): FirstPage<N> | undefined {
		return this.firstPage;
	}

	/** Starts the call for a page now (a page asked ahead is read later, or never). */
	fetch(query: PageQuery): Promise<PageBody<N>> {
		const body = serviceRequest(this.context, { ...this.paged.request, qs: query, page: this.list.describe(query) }) as Promise<PageBody<N>>;
		// A page asked ahead may never be read (the walk failed or went elsewhere): its failure must not go unhandled.
		body.catch(() => undefined);
		return body;
	}

	/** Reads the page at `query` (from `pending` when it was asked ahead), checked; refuses a page this walk already read. */
	async read(query: PageQuery, pending?: Promise<PageBody<N>>): Promise<Page<N>> {
		const name = this.list.describe(query);
		if (this.asked.has(name)) throw await this.invalid(name, `the service sent the walk back to ${name}, which it had already answered`);
		this.asked.add(name);
		const body = await (pending ?? this.fetch(query));
		const items = this.list.items(body);
		const problem = this.list.problem?.(body, query, items, this.firstPage);
		if (problem) throw await this.invalid(name, problem);
		this.firstPage ??= { body, size: items.length };
		return { query, body, items, next: items.length === 0 ? undefined : this.list.next(body, query, items) };
	}

	/** The walk's error for a page (or, with none, the whole walk) that does not hold what it must; secrets never in it. */
	async invalid(page: string | undefined, problem: string): Promise<Error> {
		const secrets = secretsOf(await serviceCredentials(this.context));
		const request = { ...this.paged.request, page: page && redactText(page, secrets) };
		return invalidAnswerError(this.context.getNode(), request, redactText(problem, secrets));
	}
}
