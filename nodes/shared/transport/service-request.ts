/** What a call to the service is: where it goes, what its answer must hold, and how errors name it (request.ts sends it; errors.ts names it). */
import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';
import type { AnswerName } from './answers';

export interface ServiceRequest<N extends AnswerName | 'none' = AnswerName | 'none'> {
	method: IHttpRequestMethods;
	/** `api`: under the credential's base URL (…/v2); `app`: under its app URL. */
	on: 'api' | 'app';
	/** Already filled (fillPath). */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Say whether a retry after a 5xx or a lost connection is safe. */
	idempotent: boolean;
	/** What a 2xx answer must hold (answers.ts); `none` for answers whose body is not used (204). */
	answer: N;
	/** The operation, as errors name it, e.g. "Signal → Get Many". */
	operation: string;
	/** Which page of a walk this is, as errors name it, e.g. "page 3" (pages/page-walk.ts). */
	page?: string;
	/** 4xx statuses that are an answer, not a failure: returned as `{}` (e.g. 404 on a delete: already gone). */
	acceptStatuses?: number[];
}
