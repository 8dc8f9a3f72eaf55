/**
 * Answering a request from the stubs, before the service's routes see it (http/with-cors.mts
 * asks first). With no stub whose method and URL fit — the usual case, found from the store's
 * index — it answers undefined at once, without a promise, and the request goes to the
 * stateful service as it always did (auth, rate limit, faults, the journal). The body is read
 * (from a copy: the service may still need it) only when a candidate stub has body patterns.
 * A stub's answer is journaled like the service's, with the stub's id; it takes no rate-limit
 * budget and no fault rule applies to it. One WorkMeter pays for all the request's patterns: a stub whose
 * pattern it cannot pay for does not match, and the answer (whoever gives it) says so in X-Mock-Warning.
 */
import { captureBody, journalBody, type Journal } from '../http/journal.mts';
import { addRequestNotes } from '../http/request-notes.mts';
import { authenticate, WARNING_HEADER, type TokenLookup } from '../http/route.mts';
import { textValue, type Value } from './content-patterns.mts';
import { notMatchedOverBudget, withPatternBudget, WorkMeter } from './linear-regex.mts';
import type { Gate, MappingsStore, Stub } from './mappings-store.mts';
import type { RequestView } from './request-pattern.mts';

export type StubAnswer = (request: Request) => Promise<Response | undefined> | undefined;

/** WireMock's admin API. */
export function isAdminPath(path: string): boolean {
	return path === '/__admin' || path.startsWith('/__admin/');
}

/** The mock's own paths: never a stub's. */
export function isOwnPath(path: string): boolean {
	return isAdminPath(path) || path.startsWith('/__mock/');
}

export function stubAnswerer(store: MappingsStore, journal: Journal, accounts: TokenLookup): StubAnswer {
	return (request) => {
		if (store.size === 0) return undefined;
		const { path, pathAndQuery } = target(request.url);
		if (isOwnPath(path)) return undefined;
		const meter = new WorkMeter();
		const first = withPatternBudget(meter, () => firstFittingHead(request, path, pathAndQuery));
		if (first === undefined) {
			addRequestNotes(request, meter.notes);
			return undefined;
		}
		return answer(request, first.view, first.candidates, meter);
	};

	/**
	 * Method, URL, query and headers are tried here, without a promise: a request that only shares a stub's path
	 * (the usual case while stubs are loaded) goes on to the service at once.
	 */
	function firstFittingHead(request: Request, path: string, pathAndQuery: string): { view: RequestView; candidates: readonly Stub[] } | undefined {
		const candidates = store.candidates(request.method, path, pathAndQuery);
		if (candidates === undefined) return undefined;
		if (candidates.gate !== undefined && !opens(candidates.gate, request, path, pathAndQuery)) return undefined;
		const view = requestView(request, path, pathAndQuery);
		const { stubs } = candidates;
		for (let i = 0; i < stubs.length; i++) {
			if (store.inState(stubs[i]) && fitsHead(stubs[i], view)) return { view, candidates: stubs.slice(i) };
		}
		return undefined;
	}

	function fitsHead(stub: Stub, view: RequestView): boolean {
		return notMatchedOverBudget(`stub ${stub.id}`, () => stub.request.matchesHead(view));
	}

	/** The first of `candidates` (whose first fits the request's head) that fits the body too, answers; `meter` goes on paying for the patterns. */
	async function answer(request: Request, view: RequestView, candidates: readonly Stub[], meter: WorkMeter): Promise<Response | undefined> {
		let body: Value | undefined;
		for (const stub of candidates) {
			if (!store.inState(stub) || !withPatternBudget(meter, () => fitsHead(stub, view))) continue;
			if (stub.request.needsBody) {
				body ??= textValue(request.body === null ? '' : await request.clone().text());
				const value = body;
				if (!withPatternBudget(meter, () => notMatchedOverBudget(`stub ${stub.id}`, () => stub.request.matchesBody(value)))) continue;
			}
			store.served(stub);
			const kept = body !== undefined ? (request.body === null ? null : journalBody(body.text)) : ((await captureBody(request)) ?? null);
			const response = await stub.response.answer();
			const account = authenticate(request, accounts);
			if (response.type !== 'error') for (const note of meter.notes) response.headers.append(WARNING_HEADER, note);
			journal.record(request, new URL(request.url), account instanceof Response ? null : account.account_id, response, meter.notes, kept, stub.id);
			return response;
		}
		addRequestNotes(request, meter.notes);
		return undefined;
	}
}

/** The request as patterns read it; each query parameter or header is read once, however many stubs ask for it. */
function requestView(request: Request, path: string, pathAndQuery: string): RequestView {
	let params: URLSearchParams | undefined;
	const queried = new Map<string, string[]>();
	const headed = new Map<string, string[]>();
	return {
		method: request.method,
		path,
		pathAndQuery,
		query: (name) =>
			readOnce(queried, name, () => {
				params ??= new URLSearchParams(pathAndQuery.slice(path.length));
				return params.getAll(name);
			}),
		header: (name) =>
			readOnce(headed, name, () => {
				const value = request.headers.get(name);
				return value === null ? [] : [value];
			}),
	};
}

/** Whether the request has one of the gate's headers or query parameters. */
function opens(gate: Gate, request: Request, path: string, pathAndQuery: string): boolean {
	for (const name of gate.headers) if (request.headers.has(name)) return true;
	return gate.query.length > 0 && pathAndQuery.length > path.length + 1 && hasParameter(pathAndQuery.slice(path.length + 1), gate.query);
}

/**
 * Whether a query (after `?`) has a parameter of one of these names, read as URLSearchParams reads them, but
 * without decoding the values or building the list: only a name with `%` or `+` in it is decoded.
 */
export function hasParameter(query: string, names: readonly string[]): boolean {
	for (let start = 0; start < query.length; ) {
		const ampersand = query.indexOf('&', start);
		const end = ampersand < 0 ? query.length : ampersand;
		const equals = query.indexOf('=', start);
		const raw = query.slice(start, equals >= 0 && equals < end ? equals : end);
		const name = raw.includes('%') || raw.includes('+') ? [...new URLSearchParams(`${raw}=`).keys()][0] : raw;
		if (end > start && names.includes(name)) return true;
		start = end + 1;
	}
	return false;
}

function readOnce(read: Map<string, string[]>, name: string, get: () => string[]): string[] {
	let values = read.get(name);
	if (values === undefined) {
		values = get();
		read.set(name, values);
	}
	return values;
}

/** The path, and the path with the query, of a request URL as fetch serializes it (no URL object: this runs on every request while stubs exist). */
function target(href: string): { path: string; pathAndQuery: string } {
	const start = href.indexOf('/', href.indexOf('//') + 2);
	if (start < 0) return { path: '/', pathAndQuery: '/' };
	const hash = href.indexOf('#', start);
	const pathAndQuery = hash < 0 ? href.slice(start) : href.slice(start, hash);
	const question = pathAndQuery.indexOf('?');
	return { path: question < 0 ? pathAndQuery : pathAndQuery.slice(0, question), pathAndQuery };
}
