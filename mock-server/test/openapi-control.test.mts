// The control API's OpenAPI document (GET /__mock/openapi.json, the built openapi-control.json) against the mock itself,
// over real HTTP: valid OpenAPI 3.1; it documents exactly the /__mock routes the handlers register; every operation
// answers each status it documents, and each answer's body validates against the document's own schemas.
import { readFileSync } from 'node:fs';
import { Validator as SchemaValidator, type Schema } from '@cfworker/json-schema';
import { Validator as OpenApiValidator } from '@seriousme/openapi-schema-validator';
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_CONTROL_PATHS } from '../../contract/api';
import { openApiControlDocument } from '../src/openapi/control-document.mts';
import { DEFAULT_HOST, DEFAULT_PORT, startMockServer, type RunningMockServer } from '../src/server.mts';
import { rawRequest } from './raw-http.mts';
import { DEMO_TOKEN, SMALL } from './harness.mts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks an arbitrary OpenAPI document by path
type Json = Record<string, any>;
interface Operation {
	method: string;
	path: string;
	spec: Json;
}
interface Answer {
	status: number;
	headers: Headers;
	text: string;
}

const MAX_BODY_BYTES = 4096;
let server: RunningMockServer;
let doc: Json;

beforeAll(async () => {
	server = await startMockServer({ ...SMALL, port: 0, maxBodyBytes: MAX_BODY_BYTES, timeScale: 0.001 });
	doc = (await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.openapi}`).then((r) => r.json())) as Json;
});
afterAll(() => server?.close());

const operations = (): Operation[] =>
	Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
		['get', 'post', 'put', 'delete'].filter((m) => item[m]).map((method) => ({ method, path, spec: item[method] })));

const resolve = (value: Json): Json => (value.$ref ? resolve(value.$ref.split('/').slice(1).reduce((at: Json, part: string) => at[part], doc)) : value);

/** The answer's status is documented for the operation and its body validates against that response's schema. */
function expectDocumented(op: Operation, answer: Answer): void {
	const where = `${op.spec.operationId} ${answer.status}: ${answer.text.slice(0, 300)}`;
	const documented = op.spec.responses[answer.status];
	expect(documented, `${where}: status not documented`).toBeDefined();
	const content = resolve(documented).content?.['application/json'];
	if (!content) {
		expect(answer.text, where).toBe('');
		return;
	}
	const validator = new SchemaValidator({ ...content.schema, components: doc.components } as Schema, '2020-12', false);
	const errors = validator.validate(JSON.parse(answer.text)).errors.filter((e) => e.keyword !== '$ref' && e.keyword !== 'properties');
	expect(errors.map((e) => `${e.instanceLocation}: ${e.error}`), where).toEqual([]);
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** A request to the operation: JSON bodies are sent with their type, as a client generated from the document sends them. */
async function send(op: Operation, init: { body?: unknown; raw?: string; headers?: Record<string, string>; query?: string; method?: string; values?: Record<string, string> } = {}): Promise<Answer> {
	const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => init.values?.[name] ?? 'acc_demo');
	const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
	const headers = { ...(body !== undefined && JSON_TYPE), ...init.headers };
	const response = await fetch(`${server.appUrl}${path}${init.query ?? ''}`, { method: init.method ?? op.method.toUpperCase(), headers, body });
	return { status: response.status, headers: response.headers, text: await response.text() };
}

/** How to get each operation's success, and each refusal it documents besides 403, 405, 413 and 414. */
const SUCCESS: Record<string, Parameters<typeof send>[1]> = {
	reset: { headers: { 'X-Mock-Control': '1' } },
	processCycle: { body: { created: 2 } },
	emitEvent: { body: { event_type: 'job_created' } },
	setFaults: { body: { faults: [{ path: '/v2/jobs', status: 503, times: 1 }] } },
	clearFaults: { headers: { 'X-Mock-Control': '1' } },
};
const REFUSALS: Record<string, Record<number, Parameters<typeof send>[1]>> = {
	processCycle: { 400: { body: { created: -1 } }, 404: { body: { source_id: 'no-such-source' } } },
	emitEvent: { 400: { body: { event_type: 'no_such_event' } }, 404: { body: { event_type: 'job_updated', job_id: 'no-such-job' } } },
	getRequests: { 400: { query: '?no_such_filter=1' } },
	setFaults: { 400: { body: { faults: [{ path: '/__mock', status: 500 }] } } },
	getSubscribers: { 404: { values: { account_id: 'no-such-account' } } },
};

describe('the control API document', () => {
	it('is valid OpenAPI 3.1, served with its server at the address asked (in-process too), and the built openapi-control.json is it', async () => {
		expect(await new OpenApiValidator().validate(doc)).toEqual({ valid: true });
		expect(doc.servers).toEqual([{ url: server.appUrl, description: 'The mock' }]);
		expect(doc).toEqual(openApiControlDocument(server.appUrl));
		const inProcess = await getResponse(server.service.handlers, new Request(`http://mock.test${MOCK_CONTROL_PATHS.openapi}`));
		expect(await inProcess?.json()).toEqual(openApiControlDocument('http://mock.test'));
		// Written by `npm run build -w mock-server` (scripts/write-openapi.mjs).
		const built = JSON.parse(readFileSync(new URL('../openapi-control.json', import.meta.url), 'utf8'));
		expect(built).toEqual(openApiControlDocument(`http://${DEFAULT_HOST}:${DEFAULT_PORT}`));
	});

	it('documents exactly the /__mock routes the handlers register', () => {
		const served = server.service.routes
			.map(({ info }) => `${String(info.method)} ${String(info.path).replace(/^\*/, '').replace(/:(\w+)/g, '{$1}')}`)
			.filter((route) => route.includes(' /__mock/'));
		const documented = operations().map((op) => `${op.method.toUpperCase()} ${op.path}`);
		expect(documented.sort(), 'each /__mock route needs its row in OPERATIONS of src/openapi/control-document.mts').toEqual([...new Set(served)].sort());
	});

	it('every operation answers its success and every refusal it documents, and each body validates', async () => {
		// Something in the journal (with a warning) and the delivery log (a receiver that is not there) to validate.
		const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
		await fetch(`${server.apiUrl}/jobs?serach=x`, { headers: auth });
		await fetch(`${server.appUrl}/api/webhooks`, { method: 'POST', headers: { ...auth, ...JSON_TYPE }, body: JSON.stringify({ url: 'http://127.0.0.1:65535/hook', event_types: ['job_created'] }) });
		await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.process}`, { method: 'POST', headers: JSON_TYPE, body: '{"created": 1}' });
		await server.service.webhooks.engine.idle();
		const [deliveries, journal] = await Promise.all(['deliveries', 'requests'].map((name) => fetch(`${server.appUrl}/__mock/${name}`).then((r) => r.json() as Promise<Json>)));
		expect(deliveries.data.length).toBeGreaterThan(0);
		expect(journal.data.some((entry: Json) => entry.warnings.length > 0)).toBe(true);
		const seen: string[] = [];
		// Reset last: the operations before it answer with what the calls above left.
		const ops = operations().sort((a, b) => Number(a.spec.operationId === 'reset') - Number(b.spec.operationId === 'reset'));
		for (const op of ops) {
			const expectStatus = async (status: number, answer: Promise<Answer>) => {
				const got = await answer;
				expect(got.status, `${op.spec.operationId}: ${got.text.slice(0, 300)}`).toBe(status);
				expectDocumented(op, got);
				seen.push(`${op.spec.operationId} ${status}`);
			};
			const success = Number(Object.keys(op.spec.responses).find((s) => s.startsWith('2')));
			await expectStatus(success, send(op, SUCCESS[op.spec.operationId]));
			for (const [status, init] of Object.entries(REFUSALS[op.spec.operationId] ?? {})) await expectStatus(Number(status), send(op, init));
			if (op.method === 'get') {
				const head = `GET ${op.path.replace('{account_id}', 'acc_demo')} HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n`;
				const raw = await rawRequest(Number(new URL(server.appUrl).port), head);
				await expectStatus(403, Promise.resolve({ status: raw.status ?? 0, headers: new Headers(raw.headers), text: raw.body }));
			} else {
				// A body a form could send cross-site (text/plain), and no control header: refused.
				await expectStatus(403, send(op, { raw: '{}', headers: { 'content-type': 'text/plain' } }));
				await expectStatus(413, send(op, { raw: JSON.stringify({ padding: 'x'.repeat(MAX_BODY_BYTES) }) }));
			}
			await expectStatus(405, send(op, { method: op.path === MOCK_CONTROL_PATHS.faults ? 'POST' : 'PATCH' }));
			await expectStatus(414, send(op, { ...SUCCESS[op.spec.operationId], query: `?q=${'x'.repeat(9000)}` }));
		}
		// The document claims no status the mock was not seen to answer.
		const documented = operations().flatMap((op) => Object.keys(op.spec.responses).map((status) => `${op.spec.operationId} ${status}`));
		expect([...new Set(seen)].sort()).toEqual(documented.sort());
	});
});
