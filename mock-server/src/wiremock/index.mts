/**
 * WireMock's stubs and verification on the mock (README, "WireMock admin API (stubs and
 * verification)"): the mappings store, the answer that runs before the service's routes,
 * the /__admin routes, and the in-process API the service hands out (`mock.stubs`,
 * `mock.requests.find`/`count`).
 */
import type { HttpHandler } from 'msw';
import type { Cors } from '../http/cors.mts';
import type { Journal } from '../http/journal.mts';
import type { TokenLookup } from '../http/route.mts';
import { withCors } from '../http/with-cors.mts';
import { adminRoutes } from './admin-routes.mts';
import { runningSince } from './health.mts';
import { JournalQuery, type LoggedRequest } from './journal-query.mts';
import { MappingsStore, type Scenario, type StubMapping } from './mappings-store.mts';
import { notMatchedAnswer, type NotMatched } from './not-matched.mts';
import { isAdminPath, isOwnPath, stubAnswerer, type StubAnswer } from './stub-answers.mts';

export { MappingError } from './content-patterns.mts';
export { StubsFull, type Scenario, type StubMapping } from './mappings-store.mts';
export type { LoggedRequest, ServeEvent } from './journal-query.mts';
export { writeStubFault } from './stub-faults.mts';

/** The in-process stubs API (`mock.stubs`). Mappings are WireMock's JSON; a bad one throws MappingError naming the field. */
export interface StubsApi {
	/** Adds a stub (WireMock's POST /__admin/mappings); the mapping as stored, with its id. */
	add(mapping: Record<string, unknown>): StubMapping;
	/** Replaces the stub with this id (PUT /__admin/mappings/{id}); undefined when there is none. */
	update(id: string, mapping: Record<string, unknown>): StubMapping | undefined;
	/** Deletes one stub; false when there is none. */
	remove(id: string): boolean;
	get(id: string): StubMapping | undefined;
	/** Every stub, in the order they are tried. */
	list(): StubMapping[];
	/** Deletes every stub and resets the scenarios. */
	reset(): void;
	scenarios(): Scenario[];
	/** Every scenario back to "Started". */
	resetScenarios(): void;
}

/** WireMock's request verification in-process (`mock.requests.find(pattern)`, `mock.requests.count(pattern)`). */
export interface RequestVerification {
	find(pattern: Record<string, unknown>): LoggedRequest[];
	count(pattern: Record<string, unknown>): number;
}

export interface WireMock {
	stubs: StubsApi;
	verification: RequestVerification;
	/** Asked before the service's routes (http/with-cors.mts). */
	answer: StubAnswer;
	/** The /__admin routes (after the service's, so they cost the service's requests nothing). */
	routes: HttpHandler[];
	/** Whether the mock serves a path the service does not have (the admin API, or a path a stub may answer): the standalone server routes it… */
	serves(pathname: string): boolean;
	/** …with these handlers: the admin routes and the stubs, behind CORS, without the service's routes (which match any prefix). */
	handlers: HttpHandler[];
	/** The methods stubs may answer a path with (a preflight's and a 405's Allow name them too). */
	methods(pathname: string): string[];
	/** The standalone server's 404 for a request on such a path (not /__admin) that no stub matched: a text diff against the closest stub. */
	notMatched(request: NotMatched, body: string): Response;
}

export function createWireMock({ journal, accounts, cors }: { journal: Journal; accounts: TokenLookup; cors: Cors }): WireMock {
	const mappings = new MappingsStore();
	const requests = new JournalQuery(journal, mappings);
	const answer = stubAnswerer(mappings, journal, accounts);
	const routes = adminRoutes({ mappings, requests, clearJournal: () => journal.clear(), running: runningSince() });
	const serves = (pathname: string) => isAdminPath(pathname) || (!isOwnPath(pathname) && mappings.mayServe(pathname));
	const methods = (pathname: string) => (mappings.size === 0 || isOwnPath(pathname) ? [] : mappings.methods(pathname));
	return {
		stubs: {
			add: (mapping) => mappings.add(mapping),
			update: (id, mapping) => mappings.replace(id, mapping),
			remove: (id) => mappings.remove(id),
			get: (id) => mappings.get(id),
			list: () => mappings.list(),
			reset: () => mappings.clear(),
			scenarios: () => mappings.scenarios(),
			resetScenarios: () => mappings.resetScenarios(),
		},
		verification: {
			find: (pattern) => requests.find(pattern).requests,
			count: (pattern) => requests.count(pattern).count,
		},
		answer,
		routes,
		serves,
		methods,
		handlers: [withCors(cors, routes, { answer, serves, methods })],
		notMatched: (request, body) => notMatchedAnswer(mappings, request, body),
	};
}
