/**
 * The workflows the benchmark runs: the Job Signals node, and n8n's HTTP
 * Request node set up as a user would for the same result (its built-in
 * pagination, followed by Split Out so that both give one item per record).
 */
import {LIMITS } from '../../contract/api';
import { ENDPOINTS } from '../../contract/endpoints';
import type { NodeStep } from '../../harness/in-process/workflow.mts';

export const JOB_SIGNALS = 'n8n-nodes-job-signals.jobSignals';
const HTTP_REQUEST = 'n8n-nodes-base.httpRequest';
const SPLIT_OUT = 'n8n-nodes-base.splitOut';

export interface Scenario {
	label: string;
	steps: NodeStep[];
	input?: Array<Record<string, unknown>>;
	/** The record id field, to count distinct records in the output. */
	idField?: string;
}

/** The mock's URLs and demo token, for the credentials and HTTP Request's URLs. */
export interface Target {
	apiUrl: string;
	appUrl: string;
	token: string;
}

export const SIGNAL_GROUP = 'problems';

export const jobSignalsSignals = (): Scenario => ({
	label: 'Job Signals node',
	idField: 'signal_id',
	steps: [{ type: JOB_SIGNALS, parameters: { resource: 'signal', operation: 'getAll', group: SIGNAL_GROUP, returnAll: true, output: 'raw' } }],
});

export const jobSignalsJobSearch = (): Scenario => ({
	label: 'Job Signals node',
	idField: 'job_id',
	steps: [{ type: JOB_SIGNALS, parameters: { resource: 'job', operation: 'search', returnAll: true, output: 'raw' } }],
});

export const jobSignalsUpload = (addresses: string[]): Scenario => ({
	label: 'Job Signals node',
	input: addresses.map((email) => ({ email })),
	steps: [{ type: JOB_SIGNALS, parameters: { resource: 'subscriber', operation: 'upload' } }],
});

const bearerHeaderAuth = { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' };

/** Page-number pagination on `page`, done when the API says there is no next page. */
export function httpSignals(target: Target, perPage?: number): Scenario {
	return {
		label: `HTTP Request (${perPage === undefined ? `default per_page ${LIMITS.signalsDefaultPerPage}` : `per_page ${perPage}`}) + Split Out`,
		idField: 'signal_id',
		steps: [
			{
				type: HTTP_REQUEST,
				parameters: {
					url: `${target.apiUrl}/signals/${SIGNAL_GROUP}`,
					...bearerHeaderAuth,
					...(perPage === undefined ? {} : { sendQuery: true, queryParameters: { parameters: [{ name: 'per_page', value: String(perPage) }] } }),
					options: {
						pagination: {
							pagination: {
								paginationMode: 'updateAParameterInEachRequest',
								parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] },
								paginationCompleteWhen: 'other',
								completeExpression: '={{ $response.body.pagination.has_next === false }}',
							},
						},
					},
				},
			},
			{ type: SPLIT_OUT, parameters: { fieldToSplitOut: 'signals' } },
		],
	};
}

/**
 * Offset pagination in steps of the search's page size, done on the first
 * empty page (the response is never empty: it always carries `metrics`).
 * `requestIntervalMs` is HTTP Request's own "Interval Between Requests".
 */
export function httpJobSearch(target: Target, requestIntervalMs = 0): Scenario {
	return {
		label: `HTTP Request${requestIntervalMs > 0 ? ` (interval ${requestIntervalMs} ms)` : ''} + Split Out`,
		idField: 'job_id',
		steps: [
			{
				type: HTTP_REQUEST,
				parameters: {
					url: `${target.apiUrl}${ENDPOINTS.jobSearch.path}`,
					...bearerHeaderAuth,
					options: {
						pagination: {
							pagination: {
								paginationMode: 'updateAParameterInEachRequest',
								parameters: { parameters: [{ type: 'qs', name: 'offset', value: `={{ $pageCount * ${LIMITS.jobSearchPageSize} }}` }] },
								paginationCompleteWhen: 'other',
								completeExpression: '={{ $response.body.data.length === 0 }}',
								requestInterval: requestIntervalMs,
							},
						},
					},
				},
			},
			{ type: SPLIT_OUT, parameters: { fieldToSplitOut: 'data' } },
		],
	};
}

/**
 * One POST per input item, the body built from the item. HTTP Request starts
 * every item's request at once unless its Batching option has an interval
 * (with interval 0 it does not wait at all); 10,000 simultaneous connections
 * overflow the local mock's listen backlog (measured: 17 and 256 of 10,000
 * dropped, failing the node). So, as a careful user would: 100 items per
 * batch, 100 ms apart.
 */
const UPLOAD_BATCH = { batchSize: 100, batchInterval: 100 };

export function httpUpload(target: Target, addresses: string[]): Scenario {
	return {
		label: `HTTP Request (one call per item, batches of ${UPLOAD_BATCH.batchSize} every ${UPLOAD_BATCH.batchInterval} ms)`,
		input: addresses.map((email) => ({ email })),
		steps: [
			{
				type: HTTP_REQUEST,
				parameters: {
					method: 'POST',
					url: `${target.appUrl}${ENDPOINTS.subscriberUpload.path}`,
					sendBody: true,
					bodyParameters: {
						parameters: [
							{ name: 'email_addresses', value: '={{ $json.email }}' },
							{ name: 'access_token', value: target.token },
						],
					},
					options: { batching: { batch: UPLOAD_BATCH } },
				},
			},
		],
	};
}
