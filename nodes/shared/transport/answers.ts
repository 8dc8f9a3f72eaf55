/**
 * What a call to the service is (an endpoint of the contract's table, by name)
 * and what its answer is once the contract's rule for it passed
 * (contract/answers.ts, checked by check-answer.ts). The types are the
 * contract's (generated from its zod schemas, contract/records.ts), with records
 * as Checked: their identifier is sure, their other fields are the service's.
 */
import type { IDataObject } from 'n8n-workflow';
import type * as Contract from '../contract';
import { ENDPOINTS, fillPath } from '../contract';

/** A record as its rule checks it: the identifier is sure; the other fields are the service's, passed on as it sent them. */
export type Checked<T, Id extends keyof T> = IDataObject & Pick<T, Id>;

/** A webhook setting as its rule checks it: the event types as strings (a type the node does not know yet is passed on). */
type CheckedSetting = Checked<Contract.WebhookSetting, 'webhook_id' | 'url'> & { event_types: string[] };

/** What each answer is once its rule passed; a rule without a type here is a type error where it is used. */
export interface AnswerTypes {
	signalsPage: Omit<Contract.SignalsEnvelope, 'signals'> & { signals: Array<Checked<Contract.Signal, 'signal_id'>> };
	jobSearchPage: Omit<Contract.JobSearchEnvelope, 'data'> & { data: Array<Checked<Contract.Job, 'job_id'>> };
	jobsPage: Omit<Contract.JobsEnvelope, 'data'> & { data: Array<Checked<Contract.Job, 'job_id'>> };
	sourcesPage: Omit<Contract.SourcesEnvelope, 'data'> & { data: Array<Checked<Contract.Source, 'source_id'>> };
	collections: { data: Array<Checked<Contract.Collection, 'collection_id'>> };
	job: Checked<Contract.Job, 'job_id'>;
	source: Checked<Contract.Source, 'source_id'>;
	/** Lists of strings: a job category the service adds later is a string the node passes on. */
	filters: Record<keyof Contract.Filters, string[]>;
	upload: IDataObject;
	webhookSettings: { data: CheckedSetting[] };
	webhookSetting: CheckedSetting;
	/** The trigger's envelope: event_data is passed on as the sender wrote it (a job or a signal). */
	webhookEvent: Omit<Contract.WebhookEvent, 'event_data'> & { event_data: IDataObject };
	/** A request whose answer's body is not used (a 204, a delete). */
	none: IDataObject;
}

/** What endpoint `E` answers. */
export type AnswerOf<E extends Contract.EndpointName> = AnswerTypes[Contract.AnswerOfEndpoint<E>];

/** One call: the endpoint, its path parameters, and how errors name it. */
export interface ServiceRequest<E extends Contract.EndpointName = Contract.EndpointName> {
	endpoint: E;
	/** The path parameters (target() checks their names). */
	params?: Readonly<Record<string, string>>;
	qs?: IDataObject;
	body?: IDataObject;
	/** The operation, as errors name it, e.g. "Signal → Get Many". */
	operation: string;
	/** Which page of a walk this is, as errors name it, e.g. "page 3" (pages/page-reader.ts). */
	page?: string;
}

/** Where a call goes: the endpoint and its path parameters. */
export type Target<E extends Contract.EndpointName = Contract.EndpointName> = Pick<ServiceRequest<E>, 'endpoint' | 'params'>;

/** A target whose parameters the type check holds to the names in the endpoint's path. */
export const target = <E extends Contract.EndpointName>(endpoint: E, params: Contract.ParamsOf<E>): Target<E> => ({ endpoint, params });

/** Where a request goes: its endpoint's path with the parameters filled in. */
export const pathOf = (request: Target): string => fillPath(ENDPOINTS[request.endpoint].path, request.params);
