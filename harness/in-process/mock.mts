/**
 * The mock service in-process for node tests: msw's setupServer intercepts
 * n8n-core's real HTTP requests. One service per test file, reset to its seed
 * (data, rate-limit budgets, faults) and its request log cleared before each
 * test. Requests to anything the mock does not serve fail the test.
 */
import { createMockService, TEST_OPTIONS, type MockService, type MockServiceOptions } from 'job-signals-mock-server';
import { setupServer } from 'msw/node';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { API_VERSION_SEGMENT } from '../../contract/api';
import { logRequests, type LoggedRequest } from './request-log.mts';

/** https: the nodes send tokens over plain http only to this machine (nodes/shared/transport/tls-only.ts); msw answers https as well. */
export const MOCK_APP_URL = 'https://job-signals.mock';
export const MOCK_API_URL = `${MOCK_APP_URL}${API_VERSION_SEGMENT}`;

/** The mock package's test data set (small, no rate limit unless asked). */
export const SMALL_MOCK = TEST_OPTIONS;

export interface MockHandle {
	readonly service: MockService;
	/** The demo account's `jobSignalsApi` credential data, pointing at the in-process mock. */
	readonly credentials: ICredentialDataDecryptedObject;
	/** Every request the mock saw since the last reset, oldest first. */
	requests(): Request[];
	/** The same, each with the status the mock answered (to count 429s or injected faults). */
	answers(): readonly LoggedRequest[];
}

export function useMockService(options: MockServiceOptions = SMALL_MOCK): MockHandle {
	let service: MockService | undefined;
	const server = setupServer();
	let log: ReturnType<typeof logRequests> | undefined;
	beforeAll(async () => {
		service = await createMockService(options);
		log = logRequests(service.handlers);
		server.use(log.handler);
		server.listen({ onUnhandledFrame: 'error' });
	});
	beforeEach(async () => {
		await service?.reset();
		log?.clear();
	});
	afterAll(() => {
		server.close();
		service?.close();
	});
	const started = () => {
		if (!service || !log) throw new Error('useMockService: the mock starts in beforeAll; use it inside tests');
		return { service, log };
	};
	return {
		get service() {
			return started().service;
		},
		get credentials() {
			return {
				apiToken: started().service.options.token,
				baseUrl: MOCK_API_URL,
				appUrl: MOCK_APP_URL,
			};
		},
		requests: () => started().log.log.map((entry) => entry.request),
		answers: () => started().log.log,
	};
}
