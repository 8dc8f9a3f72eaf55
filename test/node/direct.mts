/**
 * The direct API, for comparing the node's output record for record: plain
 * fetch calls (through the same in-process mock) that walk each pagination kind
 * independently of the node's transport.
 */
import { MOCK_API_URL, MOCK_APP_URL } from '../../harness/in-process/mock.mts';
import { DEFAULT_OPTIONS } from 'job-signals-mock-server';

const DEMO_TOKEN = DEFAULT_OPTIONS.token;

export const NODE_TYPE = 'n8n-nodes-job-signals.jobSignals';

type Json = Record<string, unknown>;

export async function api(path: string, query: Record<string, string | number | boolean | string[]> = {}, token = DEMO_TOKEN): Promise<Json> {
	const url = new URL(`${MOCK_API_URL}${path}`);
	for (const [name, value] of Object.entries(query)) {
		for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(one));
	}
	const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
	if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
	return (await response.json()) as Json;
}

/** Every signal of an endpoint, page by page. */
export async function allSignals(path: string, query: Record<string, string | boolean> = {}): Promise<Json[]> {
	const out: Json[] = [];
	for (let page = 1; ; page++) {
		const body = await api(path, { ...query, page, per_page: 1000 });
		out.push(...(body.signals as Json[]));
		if (!(body.pagination as Json).has_next) return out;
	}
}

/** Every item behind a cursor. */
export async function allByCursor(path: string, cursorName: string): Promise<Json[]> {
	const out: Json[] = [];
	let cursor: string | undefined;
	do {
		const body = await api(path, cursor ? { [cursorName]: cursor } : {});
		out.push(...(body.data as Json[]));
		cursor = body[cursorName] as string | undefined;
	} while (cursor);
	return out;
}

/** Every job of a search, offset page by offset page. */
export async function allSearched(query: Record<string, string | string[]>, token = DEMO_TOKEN): Promise<Json[]> {
	const out: Json[] = [];
	for (;;) {
		const body = await api('/jobs', { ...query, offset: out.length }, token);
		const data = body.data as Json[];
		if (data.length === 0) return out;
		out.push(...data);
	}
}

export async function setFaults(faults: Json[]): Promise<void> {
	const response = await fetch(`${MOCK_APP_URL}/__mock/faults`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ faults }),
	});
	if (!response.ok) throw new Error(`faults: ${response.status} ${await response.text()}`);
}
