// The OpenAPI document (GET /openapi.json, the built openapi.json) against the mock itself, over real HTTP:
// valid OpenAPI 3.1; every route the handlers register is documented and every documented operation is served;
// each operation's real answers (success and every documented refusal) validate against the document's own schemas and headers.
import { readFileSync } from 'node:fs';
import { Validator as SchemaValidator, type Schema } from '@cfworker/json-schema';
import { Validator as OpenApiValidator } from '@seriousme/openapi-schema-validator';
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHOICES, MOCK_CONTROL_PATHS, OPENAPI_DOCUMENT_PATH, SIGNAL_HIERARCHY } from '../src/base/contract.mts';
import { openApiDocument } from '../src/openapi/document.mts';
import { DEFAULT_HOST, DEFAULT_PORT, startMockServer, type RunningMockServer } from '../src/server.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks an arbitrary OpenAPI document by path
type Json = Record<string, any>;
interface Operation {
	method: string;
	/** The path under the app URL, with `{name}` placeholders. */
	path: string;
	spec: Json;
}

const METHODS = ['get', 'post', 'put', 'delete'];
const json = (response: Response) => response.json() as Promise<Json>;
const MAX_BODY_BYTES = 4096;
let server: RunningMockServer;
/** One request per window per account: for the 429s. */
let limited: RunningMockServer;
let doc: Json;
let params: Record<string, string>;

const BODIES: Record<string, unknown> = {
	uploadSubscribers: { email_addresses: 'openapi@example.com', access_token: DEMO_TOKEN },
	createWebhook: { url: 'http://127.0.0.1:65535/hook', event_types: ['job_created'] },
};
/** Values no record has, for the 404s. */
const UNKNOWN: Record<string, string> = { group: 'no-such-group', url_source: 'no-such.example' };

beforeAll(async () => {
	[server, limited] = await Promise.all([
		startMockServer({ ...SMALL, rateLimit: 1000, port: 0, maxBodyBytes: MAX_BODY_BYTES }),
		startMockServer({ ...SMALL, rateLimit: 1, port: 0 }),
	]);
	doc = await fetch(`${server.appUrl}${OPENAPI_DOCUMENT_PATH}`).then(json);
	const api = (path: string) => fetch(`${server.apiUrl}${path}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } }).then(json);
	const collection = (await api('/collections')).data.find((c: Json) => c.count_sources > 0);
	const sources: Json[] = (await api(`/collections/${collection.collection_id}/sources`)).data;
	let job: Json | undefined;
	let source: Json | undefined;
	for (source of sources) if ((job = (await api(`/sources/id/${source.source_id}/jobs`)).data[0])) break;
	const webhook = await fetch(`${server.appUrl}/api/webhooks`, {
		method: 'POST', headers: { authorization: `Bearer ${DEMO_TOKEN}` }, body: JSON.stringify(BODIES.createWebhook),
	}).then(json);
	const [{ group, categories: [{ id: category, types: [type] }] }] = SIGNAL_HIERARCHY;
	params = { group, category, type, url_source: source!.url_source, source_id: source!.source_id, job_id: job!.job_id, collection_id: collection.collection_id, webhook_id: webhook.webhook_id };
});
afterAll(async () => {
	await Promise.all([server?.close(), limited?.close()]);
});

function operations(): Operation[] {
	return Object.entries(doc.paths as Record<string, Json>).flatMap(([key, item]) => {
		const base = new URL((item.servers ?? doc.servers)[0].url).pathname.replace(/\/$/, '');
		return METHODS.filter((m) => item[m]).map((method) => ({ method, path: `${base}${key}`, spec: item[method] }));
	});
}

const resolve = (value: Json): Json => (value.$ref ? resolve(value.$ref.split('/').slice(1).reduce((at: Json, part: string) => at[part], doc)) : value);
const validators = new Map<string, SchemaValidator>();
function validate(schema: Json, value: unknown): string[] {
	const key = JSON.stringify(schema);
	let validator = validators.get(key);
	if (!validator) validators.set(key, (validator = new SchemaValidator({ ...schema, components: doc.components } as Schema, '2020-12', false)));
	return validator.validate(value).errors.filter((e) => e.keyword !== '$ref' && e.keyword !== 'properties').map((e) => `${e.instanceLocation}: ${e.error}`);
}

interface Answer {
	status: number;
	headers: Headers;
	text: string;
}

/** The answer's status is one the operation documents, and its body and headers validate against that response. */
function expectDocumented(op: Operation, answer: Answer): void {
	const where = `${op.spec.operationId} ${answer.status}`;
	const documented = op.spec.responses[answer.status];
	if (!documented) throw new Error(`${where}: status not documented (${answer.text.slice(0, 200)})`);
	const response = resolve(documented);
	const content = response.content?.['application/json'];
	if (content) {
		expect(answer.headers.get('content-type'), where).toMatch(/^application\/json/);
		expect(validate(content.schema, JSON.parse(answer.text)), where).toEqual([]);
	} else {
		expect(answer.text, where).toBe('');
	}
	for (const [name, ref] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
		const header = resolve(ref);
		const value = answer.headers.get(name);
		if (header.required) expect(value, `${where}: header ${name}`).not.toBeNull();
		if (value === null) continue;
		const parsed = header.schema.type === 'integer' ? (/^\d+$/.test(value) ? Number(value) : value) : value;
		expect(validate(header.schema, parsed), `${where}: header ${name}`).toEqual([]);
	}
}

async function send(target: RunningMockServer, op: Operation, init: { values?: Record<string, string>; query?: string; token?: string | null; body?: string; method?: string } = {}): Promise<Answer> {
	const values = init.values ?? params;
	const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? params[name]));
	const token = init.token === undefined ? DEMO_TOKEN : init.token;
	const headers: Record<string, string> = op.spec.security.length > 0 && token !== null ? { authorization: `Bearer ${token}` } : {};
	const body = init.body ?? (op.spec.requestBody ? JSON.stringify(BODIES[op.spec.operationId]) : undefined);
	if (op.spec.requestBody && BODIES[op.spec.operationId] === undefined) throw new Error(`no example body for ${op.spec.operationId}`);
	const response = await fetch(`${target.appUrl}${path}${init.query ?? ''}`, { method: init.method ?? op.method.toUpperCase(), headers, body });
	return { status: response.status, headers: response.headers, text: await response.text() };
}

const successStatus = (op: Operation) => Number(Object.keys(op.spec.responses).find((s) => s.startsWith('2')));

describe('the OpenAPI document', () => {
	it('is valid OpenAPI 3.1, and the validator refuses a broken copy', async () => {
		const validator = new OpenApiValidator();
		expect(await validator.validate(doc)).toEqual({ valid: true });
		expect(validator.version).toBe('3.1');
		const broken = structuredClone(doc);
		// A path parameter must be required (OpenAPI 3.1).
		broken.paths['/sources/id/{source_id}'].get.parameters[0].required = false;
		expect((await new OpenApiValidator().validate(broken)).valid).toBe(false);
	});

	it('is served with servers at the address asked, in-process too, and the built openapi.json is the generated document', async () => {
		expect(doc.servers[0].url).toBe(server.apiUrl);
		expect(doc.paths['/api/subscribers/upload'].servers[0].url).toBe(server.appUrl);
		expect(doc).toEqual(openApiDocument(server.appUrl));
		const inProcess = await getResponse(server.service.handlers, new Request(`http://mock.test${OPENAPI_DOCUMENT_PATH}`));
		expect(await inProcess?.json()).toEqual(openApiDocument('http://mock.test'));
		// Written by `npm run build -w mock-server` (scripts/write-openapi.mjs).
		const built = JSON.parse(readFileSync(new URL('../../mock-server/openapi.json', import.meta.url), 'utf8'));
		expect(built).toEqual(openApiDocument(`http://${DEFAULT_HOST}:${DEFAULT_PORT}`));
	});

	it('is served without a token, outside the rate limit and the request journal', async () => {
		for (let i = 0; i < 3; i++) {
			const answer = await fetch(`${limited.appUrl}${OPENAPI_DOCUMENT_PATH}`);
			expect(answer.status).toBe(200);
			expect(answer.headers.get(CHOICES.rateLimitHeaderNames.limit)).toBeNull();
		}
		const signals = `${limited.apiUrl}/signals/${params.group}`;
		const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
		expect((await fetch(signals, { headers: auth })).status).toBe(200);
		expect((await fetch(signals, { headers: auth })).status).toBe(429);
		const journal = await fetch(`${limited.appUrl}${MOCK_CONTROL_PATHS.requests}`).then(json);
		expect(journal.data.map((e: Json) => [e.path, e.status])).toEqual([[`/v2/signals/${params.group}`, 200], [`/v2/signals/${params.group}`, 429]]);
		await fetch(`${limited.appUrl}${MOCK_CONTROL_PATHS.reset}`, { method: 'POST', headers: { 'content-type': 'application/json' } });
	});

	it('is served at /openapi.json only: under /v2 that name is a job id or a domain, answered by their routes', async () => {
		const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
		const job = await fetch(`${server.apiUrl}/jobs/openapi.json`, { headers: auth });
		expect(job.status).toBe(404);
		expect((await json(job)).message).toMatch(/No job with id "openapi\.json"/);
		expect((await fetch(`${server.apiUrl}/sources/openapi.json`, { headers: auth })).status).toBe(404);
		expect((await fetch(`${server.apiUrl}/jobs/openapi.json`)).status).toBe(CHOICES.authErrorStatus);
	});

	it('documents exactly the routes the handlers register (but the mock\'s own /__mock routes and the document itself)', () => {
		const served = server.service.routes
			.map(({ info }) => [info.method, info.path])
			.filter((r): r is [string, string] => typeof r[0] === 'string' && typeof r[1] === 'string')
			.map(([method, path]) => `${method} ${path.replace(/^\*/, '').replace(/:(\w+)/g, '{$1}')}`)
			.filter((route) => !route.includes(' /__mock/') && !route.endsWith(` ${OPENAPI_DOCUMENT_PATH}`));
		const documented = operations().map((op) => `${op.method.toUpperCase()} ${op.path}`);
		expect(documented.sort()).toEqual([...new Set(served)].sort());
	});

	it('marks exactly the jobs and sources API deprecated (the spec: "jobs and sources API (v2, deprecated)")', () => {
		const deprecated = operations().filter((op) => op.spec.deprecated === true).map((op) => op.path);
		expect(deprecated.length).toBeGreaterThan(0);
		for (const op of operations()) expect(op.spec.deprecated === true, op.path).toBe(/^\/v2\/(jobs|sources|collections)(\/|$)/.test(op.path));
	});

	it('every operation answers its documented success, with and without the documented query defaults, and the body validates', async () => {
		for (const op of operations()) {
			const answer = await send(server, op);
			expect(answer.status, `${op.spec.operationId}: ${answer.text.slice(0, 200)}`).toBe(successStatus(op));
			expectDocumented(op, answer);
			const defaults = (op.spec.parameters ?? [])
				.filter((p: Json) => p.in === 'query' && p.schema.default !== undefined && !Array.isArray(p.schema.default))
				.map((p: Json) => `${p.name}=${encodeURIComponent(p.schema.default)}`);
			if (defaults.length === 0 || op.method !== 'get') continue;
			const withDefaults = await send(server, op, { query: `?${defaults.join('&')}` });
			expect(withDefaults.status, op.spec.operationId).toBe(200);
			expect(withDefaults.text).toBe(answer.text);
		}
		// The check itself refuses a body the schema does not fit, a missing required header and a status not documented.
		const [collections] = operations().filter((op) => op.spec.operationId === 'getCollections');
		const jsonType = new Headers({ 'content-type': 'application/json' });
		expect(() => expectDocumented(collections, { status: 200, headers: jsonType, text: '{"data": [{"collection_id": ""}]}' })).toThrow();
		expect(() => expectDocumented(collections, { status: 429, headers: jsonType, text: '{"status": 429, "error": "Too Many Requests", "message": ""}' })).toThrow(/Retry-After/);
		expect(() => expectDocumented(collections, { status: 418, headers: jsonType, text: '{}' })).toThrow(/not documented/);
	});

	it("every operation's refusals are documented and validate: token, 404, query, body, 405, 413, 414, 500", async () => {
		const faults = (body: unknown) => fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.faults}`, { method: body ? 'PUT' : 'DELETE', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		for (const op of operations()) {
			const expectStatus = async (status: number, answer: Promise<Answer>) => {
				const got = await answer;
				expect(got.status, `${op.spec.operationId}: ${got.text.slice(0, 200)}`).toBe(status);
				expectDocumented(op, got);
			};
			if (op.spec.security.length > 0) await expectStatus(CHOICES.authErrorStatus, send(server, op, { token: null }));
			else await expectStatus(400, send(server, op, { body: JSON.stringify({ ...BODIES[op.spec.operationId] as Json, access_token: 'wrong' }) }));
			if (/\{\w+\}/.test(op.path)) {
				const unknown = Object.fromEntries(Object.keys(params).map((name) => [name, UNKNOWN[name] ?? `no-such-${name}`]));
				await expectStatus(404, send(server, op, { values: unknown }));
			}
			const single = (op.spec.parameters ?? []).find((p: Json) => p.in === 'query' && p.schema.type !== 'array');
			if (single) await expectStatus(400, send(server, op, { query: `?${single.name}=1&${single.name}=2` }));
			if (op.spec.requestBody) {
				await expectStatus(400, send(server, op, { body: '{' }));
				await expectStatus(413, send(server, op, { body: JSON.stringify({ padding: 'x'.repeat(MAX_BODY_BYTES) }) }));
			}
			await expectStatus(405, send(server, op, { method: 'PUT' }));
			await expectStatus(414, send(server, op, { query: `?q=${'x'.repeat(9000)}` }));
			await faults({ faults: [{ path: op.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]), method: op.method.toUpperCase(), status: 500, times: 1 }] });
			await expectStatus(500, send(server, op));
		}
		await faults(undefined);
	});

	it('rate-limited operations answer the documented 429 with Retry-After; the others are not limited', async () => {
		const ops = operations();
		const rateLimited = ops.filter((op) => op.spec.responses[429]);
		expect(rateLimited.map((op) => op.path).every((path) => path.startsWith('/v2/'))).toBe(true);
		expect((await send(limited, rateLimited[0])).status).toBe(200);
		for (const op of ops) {
			const answer = await send(limited, op);
			// An app operation answers as it would with budget left (the webhook to delete exists only on the other server: 404).
			expect(answer.status === 429, `${op.spec.operationId}: ${answer.status}`).toBe(op.spec.responses[429] !== undefined);
			expectDocumented(op, answer);
		}
		await fetch(`${limited.appUrl}${MOCK_CONTROL_PATHS.reset}`, { method: 'POST', headers: { 'content-type': 'application/json' } });
	});
});
