/**
 * The stub mappings and their scenarios. Stubs are indexed by method and by URL, so a
 * request that no stub can match is told so without a promise and without looking at its
 * body: a `url`/`urlPath` stub is found by the path in a map, a pattern stub is tried only
 * when the path lies in the folder of the pattern's literal start and starts with it, and stubs
 * that each need a query parameter or header are passed over when the request has none of
 * them (their gate). The index is rebuilt on every change (changes are admin calls, requests
 * are the hot path).
 *
 * Order among stubs that match: `priority` (1 first; 5 when not given, as WireMock), then
 * the newest. Scenarios start in "Started"; a stub with `requiredScenarioState` matches only
 * in that state, and a served stub with `newScenarioState` moves its scenario on.
 */
import { randomUUID } from 'node:crypto';
import { fail, isPlainObject } from './content-patterns.mts';
import { notMatchedOverBudget } from './linear-regex.mts';
import { SERVED_METHODS } from '../http/methods.mts';
import { readRequestPattern, type Needed, type RequestPattern } from './request-pattern.mts';
import { readStubResponse, type StubResponse } from './stub-response.mts';

/** A mapping as the admin API answers it: what was given, with its id (and `uuid`, WireMock's alias). */
export type StubMapping = Record<string, unknown> & { id: string; uuid: string };

export interface Stub {
	readonly id: string;
	readonly mapping: StubMapping;
	readonly request: RequestPattern;
	readonly response: StubResponse;
	readonly priority: number;
	/** Insertion order: the newest of equal priority wins. */
	readonly seq: number;
	readonly scenario?: { name: string; required?: string; next?: string };
	/** The mapping's JSON length, counted against MAX_STUB_BYTES. */
	readonly bytes: number;
}

export interface Scenario {
	id: string;
	name: string;
	state: string;
	possibleStates: string[];
	mappings: StubMapping[];
}

const STARTED = 'Started';
const DEFAULT_PRIORITY = 5;
/** The most stubs held at once, and the most JSON they may hold together (nothing grows without a bound). */
const MAX_STUBS = 1000;
const MAX_STUB_BYTES = 32 * 1024 * 1024;
/** A stub's id, as WireMock's: a UUID. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SERVED_FIELDS = ['id', 'uuid', 'name', 'request', 'response', 'priority', 'scenarioName', 'requiredScenarioState', 'newScenarioState', 'metadata', 'persistent', 'insertionIndex'];
const NOT_SERVED_FIELDS: Record<string, string> = {
	postServeActions: 'webhooks and other serve actions are not served',
	serveEventListeners: 'webhooks and other serve actions are not served',
};

/** The store is full: 409. */
export class StubsFull extends Error {}

/**
 * Stubs whose method and URL rule fit a request, in the order they are tried, and their gate: when each of them
 * needs some query parameter or header, the names of which a request must have one for any of them to match
 * (most requests, sharing only a path with stubs narrowed by a parameter or a header, are told no by it).
 */
export interface Candidates {
	readonly stubs: readonly Stub[];
	readonly gate: Gate | undefined;
}

export interface Gate {
	readonly query: readonly string[];
	readonly headers: readonly string[];
}

/** One method's stubs, each list in the order stubs are tried. */
interface Bucket {
	/** `urlPath` stubs by their path. */
	paths: Map<string, Candidates>;
	/** `url` stubs by their path and query. */
	urls: Map<string, Candidates>;
	/**
	 * `urlPattern` and `urlPathPattern` stubs by the folder their literal start ends in (`/v2/jobs/` for
	 * `/v2/jobs/job_.*`, '' when it has none): a path looks in its own folders only, so the stubs of other
	 * folders cost it nothing (in a busy test process, every object a request touches is a cache miss).
	 */
	patterns: Map<string, Stub[]>;
	/** Stubs with no URL rule. */
	any: Candidates;
}

const ANY_METHOD = '*';

export class MappingsStore {
	private readonly stubs = new Map<string, Stub>();
	private index = new Map<string, Bucket>();
	private readonly states = new Map<string, string>();
	private seq = 0;
	private bytes = 0;

	get size(): number {
		return this.stubs.size;
	}

	/** Adds a mapping (its own id, or a new one); an existing id is replaced. Throws MappingError, StubsFull. */
	add(input: unknown): StubMapping {
		const stub = this.read(input, undefined);
		this.put(stub);
		return stub.mapping;
	}

	/** Replaces the mapping with this id (undefined: none); the body's own id, if any, must be the same. */
	replace(id: string, input: unknown): StubMapping | undefined {
		if (!this.stubs.has(id)) return undefined;
		const stub = this.read(input, id);
		this.put(stub);
		return stub.mapping;
	}

	remove(id: string): boolean {
		const stub = this.stubs.get(id);
		if (stub === undefined) return false;
		this.stubs.delete(id);
		this.bytes -= stub.bytes;
		this.reindex();
		return true;
	}

	clear(): void {
		this.stubs.clear();
		this.states.clear();
		this.bytes = 0;
		this.reindex();
	}

	get(id: string): StubMapping | undefined {
		return this.stubs.get(id)?.mapping;
	}

	/** Every mapping, in the order they are tried. */
	list(): StubMapping[] {
		return this.all().map((stub) => stub.mapping);
	}

	/** Every stub, in the order they are tried (near misses compare a request with each). */
	all(): Stub[] {
		return [...this.stubs.values()].sort(tried);
	}

	/** The state a scenario is in ("Started" until a stub moves it). */
	stateOf(name: string): string {
		return this.states.get(name) ?? STARTED;
	}

	/** The stubs whose method and URL rule match, and their gate; undefined when none (the usual case, decided without a promise). */
	candidates(method: string, path: string, pathAndQuery: string): Candidates | undefined {
		const found: Candidates[] = [];
		collect(this.index.get(method), path, pathAndQuery, found);
		collect(this.index.get(ANY_METHOD), path, pathAndQuery, found);
		if (found.length <= 1) return found[0];
		const gates = found.map((each) => each.gate);
		const gate = gates.every((each) => each !== undefined) ? { query: gates.flatMap((each) => each.query), headers: gates.flatMap((each) => each.headers) } : undefined;
		return { stubs: found.flatMap((each) => each.stubs).sort(tried), gate };
	}

	/**
	 * Whether some stub could answer this path (any method, any query): the standalone server serves such a path
	 * though the service has none. A pattern stub may when the path starts with the pattern's literal start: no
	 * pattern runs here (the stub layer's budget pays for those that do), and a path it lets through that no stub
	 * matches gets the same 404.
	 */
	mayServe(path: string): boolean {
		for (const bucket of this.index.values()) if (bucketMayServe(bucket, path)) return true;
		return false;
	}

	/** The methods some stub could answer this path with (any query): ANY stubs, every method stubs may name. */
	methods(path: string): string[] {
		const methods = new Set<string>();
		for (const [method, bucket] of this.index) {
			if (!bucketMayServe(bucket, path)) continue;
			if (method !== ANY_METHOD) methods.add(method);
			else for (const each of SERVED_METHODS) methods.add(each);
		}
		return [...methods];
	}

	/** Whether the stub's scenario (if any) is in the state it requires. */
	inState(stub: Stub): boolean {
		const scenario = stub.scenario;
		return scenario?.required === undefined || this.stateOf(scenario.name) === scenario.required;
	}

	/** The stub answered: its scenario moves to its new state. */
	served(stub: Stub): void {
		if (stub.scenario?.next !== undefined) this.states.set(stub.scenario.name, stub.scenario.next);
	}

	/** The scenarios the stubs name (by name), each with its state and the states its stubs name. */
	scenarios(): Scenario[] {
		const byName = new Map<string, Scenario>();
		for (const stub of [...this.stubs.values()].sort(tried)) {
			const scenario = stub.scenario;
			if (scenario === undefined) continue;
			let entry = byName.get(scenario.name);
			if (entry === undefined) {
				entry = { id: scenario.name, name: scenario.name, state: this.states.get(scenario.name) ?? STARTED, possibleStates: [STARTED], mappings: [] };
				byName.set(scenario.name, entry);
			}
			for (const state of [scenario.required, scenario.next]) if (state !== undefined && !entry.possibleStates.includes(state)) entry.possibleStates.push(state);
			entry.mappings.push(stub.mapping);
		}
		return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	}

	/** Every scenario back to "Started". */
	resetScenarios(): void {
		this.states.clear();
	}

	/** Sets a scenario's state ("Started" when none is given); the error message when the scenario or the state is unknown. */
	setScenarioState(name: string, state: string = STARTED): { unknown: 'scenario' | 'state'; message: string } | undefined {
		const scenario = this.scenarios().find((each) => each.name === name);
		if (scenario === undefined) return { unknown: 'scenario', message: `No scenario named "${name}"` };
		if (!scenario.possibleStates.includes(state)) return { unknown: 'state', message: `Scenario "${name}" has no state "${state}" (its states: ${scenario.possibleStates.join(', ')})` };
		this.states.set(name, state);
		return undefined;
	}

	private put(stub: Stub): void {
		const old = this.stubs.get(stub.id);
		if (old === undefined && this.stubs.size >= MAX_STUBS) throw new StubsFull(`The mock holds at most ${MAX_STUBS} stubs: delete some first (DELETE /__admin/mappings removes all)`);
		const bytes = this.bytes - (old?.bytes ?? 0) + stub.bytes;
		if (bytes > MAX_STUB_BYTES) throw new StubsFull(`The stubs would hold more than ${MAX_STUB_BYTES} bytes of JSON: delete some first`);
		this.stubs.set(stub.id, stub);
		this.bytes = bytes;
		this.reindex();
	}

	private reindex(): void {
		const lists = new Map<string, { paths: Map<string, Stub[]>; urls: Map<string, Stub[]>; patterns: Map<string, Stub[]>; any: Stub[] }>();
		for (const stub of [...this.stubs.values()].sort(tried)) {
			const key = stub.request.method ?? ANY_METHOD;
			let bucket = lists.get(key);
			if (bucket === undefined) lists.set(key, (bucket = { paths: new Map(), urls: new Map(), patterns: new Map(), any: [] }));
			const rule = stub.request.url;
			if (rule.kind === 'any') bucket.any.push(stub);
			else if ('pathPrefix' in rule) append(bucket.patterns, rule.pathPrefix.slice(0, rule.pathPrefix.lastIndexOf('/') + 1), stub);
			else append(rule.kind === 'url' ? bucket.urls : bucket.paths, rule.value, stub);
		}
		const gated = (map: Map<string, Stub[]>) => new Map([...map].map(([key, stubs]) => [key, withGate(stubs)]));
		this.index = new Map([...lists].map(([key, bucket]) => [key, { paths: gated(bucket.paths), urls: gated(bucket.urls), patterns: bucket.patterns, any: withGate(bucket.any) }]));
	}

	/** Reads a mapping (throws MappingError naming the field); `id`: the mapping it replaces. */
	private read(input: unknown, id: string | undefined): Stub {
		try {
			return this.readMapping(input, id);
		} catch (error) {
			// JSON nested deeper than a stack (a jsonBody, metadata): refused, not a crash.
			if (error instanceof RangeError) fail('mapping', 'is nested too deeply');
			throw error;
		}
	}

	private readMapping(input: unknown, id: string | undefined): Stub {
		if (!isPlainObject(input)) fail('mapping', 'must be a JSON object such as {"request": {…}, "response": {…}}');
		for (const key of Object.keys(input)) {
			if (SERVED_FIELDS.includes(key)) continue;
			const why = NOT_SERVED_FIELDS[key];
			fail(key, why === undefined ? `is no mapping field WireMock or this mock knows (served: ${SERVED_FIELDS.join(', ')})` : `WireMock's "${key}": ${why}`);
		}
		const given = [input.id, input.uuid].filter((value) => value !== undefined);
		for (const value of given) if (typeof value !== 'string' || !UUID.test(value)) fail(input.id === value ? 'id' : 'uuid', 'must be a UUID, as WireMock\'s ids are');
		if (given.length === 2 && given[0] !== given[1]) fail('uuid', 'must equal id (it is its alias)');
		if (id !== undefined && given.length > 0 && given[0] !== id) fail('id', `must be the id in the path (${id}) or left out`);
		const stubId = id ?? (given[0] as string | undefined)?.toLowerCase() ?? randomUUID();
		optionalString(input.name, 'name');
		const priority = input.priority;
		if (priority !== undefined && (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 1)) fail('priority', 'must be a whole number, 1 or more (1 is tried first)');
		if (input.persistent !== undefined && input.persistent !== false) fail('persistent', 'stubs live in memory only: persistent must be false or left out');
		if (input.insertionIndex !== undefined && (typeof input.insertionIndex !== 'number' || !Number.isInteger(input.insertionIndex))) fail('insertionIndex', 'must be a whole number (it is WireMock\'s own, and ignored here)');
		if (input.metadata !== undefined && !isPlainObject(input.metadata)) fail('metadata', 'must be an object');
		if (input.request === undefined) fail('request', 'is required (e.g. {"method": "GET", "urlPath": "/v2/jobs"})');
		const scenario = readScenario(input);
		const request = readRequestPattern(input.request, 'request', { forStub: true });
		const response = readStubResponse(input.response, 'response');
		// Answered as given, with the id first and its alias; insertionIndex is WireMock's own bookkeeping.
		const rest = Object.fromEntries(Object.entries(input).filter(([key]) => key !== 'id' && key !== 'uuid' && key !== 'insertionIndex'));
		const mapping: StubMapping = { id: stubId, ...rest, uuid: stubId };
		return {
			id: stubId,
			mapping,
			request,
			response,
			priority: (priority as number | undefined) ?? DEFAULT_PRIORITY,
			seq: ++this.seq,
			...(scenario && { scenario }),
			bytes: JSON.stringify(mapping).length,
		};
	}
}

/** Whether one of a bucket's stubs could answer this path (any query). */
function bucketMayServe(bucket: Bucket, path: string): boolean {
	if (bucket.any.stubs.length > 0 || bucket.paths.has(path)) return true;
	for (const url of bucket.urls.keys()) if (url.split('?')[0] === path) return true;
	for (const stub of [...bucket.patterns.values()].flat()) {
		const rule = stub.request.url;
		// A pattern's literal start, never the pattern itself: deciding whether a path is a stub's runs no pattern (its work is a request's, from the request's budget).
		if ((rule.kind === 'urlPathPattern' || rule.kind === 'urlPattern') && path.startsWith(rule.pathPrefix)) return true;
	}
	return false;
}

/** Adds to `found` each of a bucket's lists with stubs whose URL rule matches (the pattern stubs that match: a new list). */
function collect(bucket: Bucket | undefined, path: string, pathAndQuery: string, found: Candidates[]): void {
	if (bucket === undefined) return;
	const byPath = bucket.paths.get(path);
	if (byPath !== undefined) found.push(byPath);
	const byUrl = bucket.urls.get(pathAndQuery);
	if (byUrl !== undefined) found.push(byUrl);
	let matched: Stub[] | undefined;
	// The path's folders: '', '/', '/v2/', '/v2/jobs/' for /v2/jobs/job_1.
	for (let end = bucket.patterns.size === 0 ? -1 : 0; end >= 0; end = path.indexOf('/', end) + 1 || -1) {
		const folder = bucket.patterns.get(path.slice(0, end));
		if (folder === undefined) continue;
		for (const stub of folder) {
			const rule = stub.request.url;
			if (rule.kind !== 'urlPattern' && rule.kind !== 'urlPathPattern') continue;
			if (path.startsWith(rule.pathPrefix) && notMatchedOverBudget(`stub ${stub.id}`, () => rule.regex.test(rule.kind === 'urlPattern' ? pathAndQuery : path))) (matched ??= []).push(stub);
		}
	}
	// Found folder by folder: back in the order stubs are tried.
	if (matched !== undefined) found.push(withGate(matched.sort(tried)));
	if (bucket.any.stubs.length > 0) found.push(bucket.any);
}

/** The order stubs are tried in: priority (1 first), then the newest. */
function tried(a: Stub, b: Stub): number {
	return a.priority - b.priority || b.seq - a.seq;
}

/** The list with its gate: the names the stubs need, when each needs one. */
function withGate(stubs: Stub[]): Candidates {
	const needs = stubs.map((stub) => stub.request.needs);
	if (!needs.every((each): each is Needed => each !== undefined)) return { stubs, gate: undefined };
	const names = (where: Needed['in']) => [...new Set(needs.filter((each) => each.in === where).map((each) => each.name))];
	return { stubs, gate: { query: names('query'), headers: names('header') } };
}

function append(map: Map<string, Stub[]>, key: string, stub: Stub): void {
	const list = map.get(key);
	if (list === undefined) map.set(key, [stub]);
	else list.push(stub);
}

function optionalString(value: unknown, path: string): string | undefined {
	if (value !== undefined && (typeof value !== 'string' || value === '')) fail(path, 'must be a non-empty string');
	return value as string | undefined;
}

function readScenario(input: Record<string, unknown>): Stub['scenario'] {
	const name = optionalString(input.scenarioName, 'scenarioName');
	const required = optionalString(input.requiredScenarioState, 'requiredScenarioState');
	const next = optionalString(input.newScenarioState, 'newScenarioState');
	if (name === undefined) {
		if (required !== undefined || next !== undefined) fail(required !== undefined ? 'requiredScenarioState' : 'newScenarioState', 'needs scenarioName');
		return undefined;
	}
	return { name, ...(required !== undefined && { required }), ...(next !== undefined && { next }) };
}
