// The control API's OpenAPI document (GET /__mock/openapi.json, the built openapi-control.json) against the mock itself,
// over real HTTP: valid OpenAPI 3.1; it documents every /__mock route the handlers register, every control path of
// the contract, and WireMock's health and version routes; every operation answers each status it documents, and each answer's body validates against the
// document's own schemas.
import { readFileSync } from 'node:fs';
import { Validator as SchemaValidator, type Schema } from '@cfworker/json-schema';
import { Validator as OpenApiValidator } from '@seriousme/openapi-schema-validator';
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_CONTROL_PATHS } from '../src/base/contract.mts';
import { openApiControlDocument } from '../src/openapi/control-document.mts';
import { PAGE_PATH } from '../src/page/page.mts';
import { ROOT_PATH } from '../src/page/root.mts';
import { DEFAULT_HOST, DEFAULT_PORT, startMockServer, type RunningMockServer } from '../src/server.mts';
import { MAX_FAILURE_RULES } from '../src/webhooks/failure-rules.mts';
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
/** A small per-account delivery queue, so that the knobs' 409 takes few deliveries to reach. */
const QUEUE_CAP = 20;
const HOOK = 'http://127.0.0.1:65535/hook';
let server: RunningMockServer;
let doc: Json;
/** An envelope the mock made and keeps (set before the operations run), for the receiver knobs. */
let keptEventId = '';

beforeAll(async () => {
	server = await startMockServer({ ...SMALL, port: 0, maxBodyBytes: MAX_BODY_BYTES, timeScale: 0.001, maxQueuedDeliveriesPerAccount: QUEUE_CAP });
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
	if (answer.headers.get('content-type')?.startsWith('text/html')) {
		expect(resolve(documented).content?.['text/html'], `${where}: HTML not documented`).toBeDefined();
		expect(answer.text, where).toMatch(/^<!doctype html>/);
		return;
	}
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

interface Init {
	/** The JSON body, or what makes it when the request is sent (a value known only then). */
	body?: unknown;
	raw?: string;
	headers?: Record<string, string>;
	query?: string;
	method?: string;
	values?: Record<string, string>;
	/** Brings the mock to where the request gets this answer, and back after it. */
	before?: () => void | Promise<void>;
	after?: () => void | Promise<void>;
}

/** A request to the operation: JSON bodies are sent with their type, as a client generated from the document sends them. */
async function send(op: Operation, init: Init = {}): Promise<Answer> {
	const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => init.values?.[name] ?? 'acc_demo');
	const value: unknown = typeof init.body === 'function' ? (init.body as () => unknown)() : init.body;
	const body = init.raw ?? (value === undefined ? undefined : JSON.stringify(value));
	const headers = { ...(body !== undefined && JSON_TYPE), ...init.headers };
	await init.before?.();
	try {
		const response = await fetch(`${server.appUrl}${path}${init.query ?? ''}`, { method: init.method ?? op.method.toUpperCase(), headers, body });
		return { status: response.status, headers: response.headers, text: await response.text() };
	} finally {
		await init.after?.();
	}
}

/**
 * acc_demo's delivery queue full (copies of the kept envelope waiting on a frozen clock), then back: the knobs' 409.
 * The deliveries the operation's success left are waited out first: frozen with them in flight, their last retries
 * could still end them and free a place before the request came.
 */
const fullQueue: Pick<Init, 'before' | 'after'> = {
	before: async () => {
		await server.service.webhooks.engine.idle();
		server.service.clock.freeze();
		server.service.sendCopies(keptEventId, QUEUE_CAP);
	},
	after: async () => {
		server.service.clock.release();
		await server.service.webhooks.engine.idle();
	},
};

/** MAX_FAILURE_RULES failure rules waiting (one per webhook of its own), then none: a rule more is 409. */
const fullRules: Pick<Init, 'before' | 'after'> = {
	before: () => {
		server.service.clearDeliveryFailures();
		for (let i = 0; i < MAX_FAILURE_RULES; i++) {
			const { webhook_id } = server.service.webhooks.settings.create('acc_demo', { url: `${HOOK}-${i}`, event_types: ['signal'] }, 0);
			server.service.failNext({ webhook_id, fail_next: 1 });
		}
	},
	after: () => {
		server.service.clearDeliveryFailures();
		for (const setting of server.service.webhooks.settings.list('acc_demo')) if (setting.url !== HOOK) server.service.webhooks.settings.remove('acc_demo', setting.webhook_id);
	},
};

/** How to get each operation's success, and each refusal it documents besides 403, 405, 413 and 414. */
const CONTROL = { headers: { 'X-Mock-Control': '1' } };
const kept = (more: Record<string, unknown> = {}) => () => ({ webhook_event_id: keptEventId, ...more });
const SUCCESS: Record<string, Init> = {
	reset: CONTROL,
	processCycle: { body: { created: 2 } },
	emitEvent: { body: { event_type: 'job_created' } },
	redeliver: { body: kept() },
	sendCopies: { body: kept({ copies: 2 }) },
	// No body: the last batch (emitEvent's) reversed.
	reorder: CONTROL,
	failNext: { body: { url: HOOK, fail_next: 1 } },
	clearDeliveryFailures: CONTROL,
	setClock: { body: { now: '2027-01-01T09:00:00Z', frozen: false } },
	releaseClock: CONTROL,
	setFaults: { body: { faults: [{ path: '/v2/jobs', status: 503, times: 1 }] } },
	clearFaults: CONTROL,
	// On Authorization: the answer's `warnings` are validated too.
	findRequests: { body: { urlPath: '/v2/jobs', headers: { authorization: { contains: 'Bearer' } } } },
	countRequests: { body: { urlPath: '/v2/jobs', headers: { authorization: { contains: 'Bearer' } } } },
	nearMissesOfRequest: { body: { method: 'GET', url: '/v2/jobs?serach=x', headers: { authorization: 'Bearer x' } } },
	nearMissesOfRequestPattern: { body: { method: 'GET', urlPath: '/v2/jobs' } },
};
const BAD_PATTERN: Init = { body: { method: 'get' } };
const REFUSALS: Record<string, Record<number, Init>> = {
	processCycle: { 400: { body: { created: -1 } }, 404: { body: { source_id: 'no-such-source' } } },
	emitEvent: { 400: { body: { event_type: 'no_such_event' } }, 404: { body: { event_type: 'job_updated', job_id: 'no-such-job' } } },
	getRequests: { 400: { query: '?no_such_filter=1' } },
	getDeliveries: { 400: { query: '?limit=0' } },
	redeliver: { 400: { body: {} }, 404: { body: { webhook_event_id: 'whe_no-such-envelope' } }, 409: { body: kept(), ...fullQueue } },
	sendCopies: { 400: { body: kept({ copies: 0 }) }, 404: { body: { webhook_event_id: 'whe_no-such-envelope', copies: 1 } }, 409: { body: kept({ copies: 1 }), ...fullQueue } },
	reorder: {
		400: { body: () => ({ webhook_event_ids: [keptEventId, keptEventId] }) },
		404: { body: { webhook_event_ids: ['whe_no-such-envelope'] } },
		409: { ...CONTROL, ...fullQueue },
	},
	failNext: { 400: { body: { fail_next: 1 } }, 404: { body: { url: `${HOOK}-none`, fail_next: 1 } }, 409: { body: { url: HOOK, fail_next: 1 }, ...fullRules } },
	setClock: { 400: { body: { now: '2027-02-30' } } },
	setFaults: { 400: { body: { faults: [{ path: '/__mock', status: 500 }] } } },
	getSubscribers: { 404: { values: { account_id: 'no-such-account' } } },
	findRequests: { 400: BAD_PATTERN },
	countRequests: { 400: BAD_PATTERN },
	nearMissesOfRequest: { 400: { body: { url: '/v2/jobs' } } },
	nearMissesOfRequestPattern: { 400: BAD_PATTERN },
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

	// Both ways: a route without its row fails one of these two; a row without its route fails the next test (its success is not answered).
	it('documents every /__mock route the handlers register', () => {
		const served = server.service.routes
			.map(({ info }) => `${String(info.method)} ${String(info.path).replace(/^\*/, '').replace(/:(\w+)/g, '{$1}')}`)
			.filter((route) => route.includes(' /__mock/'));
		const documented = new Set(operations().map((op) => `${op.method.toUpperCase()} ${op.path}`));
		expect(served.length).toBeGreaterThan(20);
		expect(served.filter((route) => !documented.has(route)), 'each /__mock route needs its row in OPERATIONS of src/openapi/control-document.mts').toEqual([]);
	});

	it("documents every control path of the contract, and the standalone server's own (the front door and the page)", () => {
		const paths = [...Object.values(MOCK_CONTROL_PATHS), ROOT_PATH, PAGE_PATH].map((path) => path.replace(/:(\w+)/g, '{$1}'));
		const control = Object.keys(doc.paths).filter((path) => !path.startsWith('/__admin/'));
		expect(control.sort(), 'each path of MOCK_CONTROL_PATHS needs its rows in OPERATIONS of src/openapi/control-document.mts').toEqual(paths.sort());
	});

	it('each /__admin operation it documents is one the admin routes serve (the rest are WireMock\'s own, in the README)', () => {
		const served = new Set(server.service.wiremock.routes.map(({ info }) => `${String(info.method)} ${String(info.path).replace(/^\*/, '')}`));
		const admin = operations().filter((op) => op.path.startsWith('/__admin/')).map((op) => `${op.method.toUpperCase()} ${op.path}`);
		expect(admin.sort()).toEqual([
			'GET /__admin/health',
			'GET /__admin/requests/unmatched/near-misses',
			'GET /__admin/version',
			'POST /__admin/near-misses/request',
			'POST /__admin/near-misses/request-pattern',
			'POST /__admin/requests/count',
			'POST /__admin/requests/find',
		]);
		expect(admin.filter((route) => !served.has(route))).toEqual([]);
	});

	it('every operation answers its success and every refusal it documents, and each body validates', async () => {
		// Something in the journal (with a warning) and the delivery log (a receiver that is not there) to validate.
		const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
		await fetch(`${server.apiUrl}/jobs?serach=x`, { headers: auth });
		await fetch(`${server.appUrl}/api/webhooks`, { method: 'POST', headers: { ...auth, ...JSON_TYPE }, body: JSON.stringify({ url: HOOK, event_types: ['job_created'] }) });
		await fetch(`${server.appUrl}${MOCK_CONTROL_PATHS.process}`, { method: 'POST', headers: JSON_TYPE, body: '{"created": 1}' });
		await server.service.webhooks.engine.idle();
		const [deliveries, journal] = await Promise.all(['deliveries', 'requests'].map((name) => fetch(`${server.appUrl}/__mock/${name}`).then((r) => r.json() as Promise<Json>)));
		expect(deliveries.data.length).toBeGreaterThan(0);
		keptEventId = deliveries.data[0].webhook_event_id;
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
			// The front door's HTML, to a browser.
			if (op.path === ROOT_PATH) await expectStatus(200, send(op, { headers: { accept: 'text/html' } }));
			for (const [status, init] of Object.entries(REFUSALS[op.spec.operationId] ?? {})) await expectStatus(Number(status), send(op, init));
			if (op.method === 'get') {
				const head = `GET ${op.path.replace('{account_id}', 'acc_demo')} HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n`;
				const raw = await rawRequest(Number(new URL(server.appUrl).port), head);
				await expectStatus(403, Promise.resolve({ status: raw.status ?? 0, headers: new Headers(raw.headers), text: raw.body }));
			} else {
				// A body a form could send cross-site (text/plain), and no control header: refused (on /__admin, when a page sends it: with Origin).
				const page: Record<string, string> = op.path.startsWith('/__admin/') ? { origin: 'http://localhost:3000' } : {};
				await expectStatus(403, send(op, { raw: '{}', headers: { 'content-type': 'text/plain', ...page } }));
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
