/**
 * The mock in-process for the mock's tests: a small seeded service behind msw's setupServer
 * (useMock), services that restart on a state folder (useRestarts), and a `call` helper that
 * checks each JSON body against the contract schema given.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { z } from 'zod/v4';
import { apiErrorSchema } from '../src/base/contract.mts';
import { createMockService, type MockService } from '../src/service.mts';
import { TEST_OPTIONS, type MockServiceOptions } from '../src/options.mts';

export const APP_URL = 'http://mock.test';
export const API_URL = `${APP_URL}/v2`;
export const DEMO_TOKEN = 'demo-token-job-signals';
export const SECOND_TOKEN = 'second-token-job-signals';
export const VOLUME_TOKEN = 'volume-token-job-signals';

export const SMALL = TEST_OPTIONS;

/**
 * The wall time a hook or test that builds the default data set (100,000 jobs and signals) may take: 2.5–3.5 s of
 * CPU (data.test.mts), which at a load of 30 on two cores, a fifteenth of a core, is about a minute, past vitest's
 * 60 s. Five minutes leaves room; a start that hangs still fails.
 */
export const DEFAULT_SIZE_START_MS = 300_000;

export interface Answer {
	status: number;
	headers: Headers;
	json: unknown;
}

/**
 * Starts one service for the file's tests and resets it before each test. Requests nothing answers fail the test,
 * unless `onUnhandledFrame: 'bypass'` lets them go to the network (webhook deliveries to a real port).
 * `resetBeforeEach: false` is for a file whose tests hold whatever the tests before them did: a reset loads the
 * data again, seconds of CPU at the default size.
 */
export function useMock(
	options: MockServiceOptions = SMALL,
	{ onUnhandledFrame = 'error', resetBeforeEach = true }: { onUnhandledFrame?: 'error' | 'bypass'; resetBeforeEach?: boolean } = {},
): { readonly service: MockService } {
	const holder = {} as { service: MockService };
	const server = setupServer();
	beforeAll(async () => {
		holder.service = await createMockService(options);
		server.use(...holder.service.handlers);
		server.listen({ onUnhandledFrame });
	}, DEFAULT_SIZE_START_MS);
	beforeEach(async () => {
		if (resetBeforeEach) await holder.service.reset();
	});
	afterAll(() => {
		server.close();
		holder.service.close();
	});
	return holder;
}

/**
 * Services that restart on a state folder, in-process: one msw server for the file, fresh folders removed after the
 * file, and every service still open closed after each test (as a killed process would let go of its folder).
 */
export function useRestarts(options: MockServiceOptions, folderPrefix: string) {
	const server = setupServer();
	const dirs: string[] = [];
	const open: MockService[] = [];
	// Deliveries and other outside calls go past msw.
	beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
	afterEach(() => {
		for (const service of open.splice(0)) service.close();
	});
	afterAll(() => {
		server.close();
		for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	});
	/** Serves this service in-process from now on, and closes it after the test. */
	const serve = (service: MockService): MockService => {
		open.push(service);
		server.resetHandlers(...service.handlers);
		return service;
	};
	return {
		serve,
		newDir(): string {
			const dir = mkdtempSync(join(tmpdir(), folderPrefix));
			dirs.push(dir);
			return dir;
		},
		/** A service on the folder (the previous one must be stopped first, as a restarted process would be). */
		start: async (stateDir: string): Promise<MockService> => serve(await createMockService({ ...options, stateDir })),
		stop(service: MockService): void {
			service.close();
			open.splice(open.indexOf(service), 1);
		},
	};
}

export async function call(path: string, init: { token?: string | null; method?: string; body?: unknown; base?: string } = {}): Promise<Answer> {
	const headers: Record<string, string> = {};
	const token = init.token === undefined ? DEMO_TOKEN : init.token;
	if (token !== null) headers.authorization = `Bearer ${token}`;
	// Every changing call is JSON, as the control routes require (a body or not): a test of a refusal sends its own request.
	if (init.body !== undefined || !['GET', 'HEAD'].includes(init.method ?? 'GET')) headers['content-type'] = 'application/json';
	const response = await fetch(`${init.base ?? API_URL}${path}`, {
		method: init.method ?? 'GET',
		headers,
		body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
	});
	const text = await response.text();
	return { status: response.status, headers: response.headers, json: text === '' ? undefined : JSON.parse(text) };
}

/** GET under /v2 expecting 200 and a body the schema accepts (strictly: no unknown keys). */
export async function ok<S extends z.ZodObject>(schema: S, path: string, token?: string): Promise<z.infer<S>> {
	const answer = await call(path, { token });
	if (answer.status !== 200) throw new Error(`${path}: expected 200, got ${answer.status} ${JSON.stringify(answer.json)}`);
	return schema.strict().parse(answer.json) as z.infer<S>;
}

/**
 * Follows a cursor from the first page to the last (bounded, so a cursor that
 * never ends fails the test instead of hanging it); returns every page's body.
 */
export async function walkCursor<S extends z.ZodObject>(schema: S, path: string, cursorParam: string, token?: string): Promise<z.infer<S>[]> {
	const pages: z.infer<S>[] = [];
	let cursor: string | undefined;
	for (let i = 0; i < 1000; i++) {
		const separator = path.includes('?') ? '&' : '?';
		const body = await ok(schema, cursor === undefined ? path : `${path}${separator}${cursorParam}=${encodeURIComponent(cursor)}`, token);
		pages.push(body);
		cursor = (body as Record<string, unknown>)[cursorParam] as string | undefined;
		if (cursor === undefined) return pages;
	}
	throw new Error(`${path}: no final page after 1000 pages`);
}

/** Newest first: created_at descending, ties by id descending (the mock's one stable order). */
export function expectNewestFirst(items: readonly { created_at: number; id: string }[]): void {
	for (let i = 1; i < items.length; i++) {
		const [a, b] = [items[i - 1], items[i]];
		if (a.created_at < b.created_at || (a.created_at === b.created_at && a.id <= b.id)) {
			throw new Error(`not newest first at ${i}: ${JSON.stringify(a)} then ${JSON.stringify(b)}`);
		}
	}
}

/** Expects an API error with this status and a message matching `message`. */
export function expectApiError(answer: Answer, status: number, message?: RegExp): void {
	if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status} ${JSON.stringify(answer.json)}`);
	const body = apiErrorSchema.strict().parse(answer.json);
	if (body.status !== status) throw new Error(`body status ${body.status} ≠ ${status}`);
	if (message && !message.test(body.message)) throw new Error(`message "${body.message}" does not match ${message}`);
}
