// Property (fast-check, fixed seeds): random bodies for every control route that takes one (/__mock/…) and for the
// WireMock admin routes' bodies (/__admin/mappings, /__admin/requests/…, /__admin/scenarios/…/state), in-process.
// Each body is a valid one with one field changed (removed, wrong type, out of range, huge, unicode), an unknown
// field added, or not a body at all. Whatever it is: no 5xx; a refusal is a JSON API error that names the changed
// field (or the body; an admin route's in WireMock's error body), and leaves every piece of state the control and admin routes can read as it was.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS, MOCK_CONTROL_PATHS, apiErrorSchema, WEBHOOK_EVENT_TYPES } from '../src/base/contract.mts';
import { adminErrorSchema } from '../src/wiremock/admin-error.mts';
import { APP_URL, useMock } from './harness.mts';

const mock = useMock();

/**
 * Everything the control and admin routes change and read back: the faults over HTTP (the service keeps them to
 * itself), the rest in-process (as cheap as a property needs).
 */
async function state(): Promise<string> {
	const { service } = mock;
	const faults = await (await fetch(`${APP_URL}${MOCK_CONTROL_PATHS.faults}`)).text();
	// A running clock (a taken body may let it run) moves by itself: then only that it runs is state.
	const { offset_ms: _offset, now, now_ms, ...clock } = service.clock.state();
	if (clock.frozen) Object.assign(clock, { now, now_ms });
	return JSON.stringify([
		faults, clock, service.deliveryFailures(), service.webhooks.engine.deliveries(), service.stubs.list(), service.stubs.scenarios(), service.requests(),
		service.store.jobs.size, service.store.signals.length, service.store.sources.size, service.accounts(),
	]);
}

/** One field of a valid body changed: the field's name (null: the whole body) and the new value (undefined: removed); or none. */
interface Change {
	field: string | null;
	value: unknown;
	none?: true;
}

/** Values of every JSON kind, with the bounds and shapes that trip schemas. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
	fc.constantFrom(undefined, null, '', ' ', 0, -1, 1.5, 1e21, -0, true, false, [], {}, [null], { toString: 1 }, LIMITS.maxChangesPerCycle + 1, 2 ** 53, '1', 'GET', 'signal'),
	fc.string({ unit: 'grapheme', maxLength: 20 }),
	fc.constantFrom(201, 1000, 100_000).map((n) => 'é'.repeat(n)),
	fc.jsonValue({ maxDepth: 2 }),
);

interface Route {
	method: 'POST' | 'PUT';
	path: string;
	/** Valid bodies; the property changes one field of one. */
	valid: fc.Arbitrary<Record<string, unknown>>;
}

const eventId = fc.constantFrom('whe_unknown', 'x'.repeat(200));
const ROUTES: Route[] = [
	{ method: 'POST', path: MOCK_CONTROL_PATHS.process, valid: fc.record({ created: fc.nat(3), updated: fc.nat(2), deleted: fc.nat(1), signals: fc.nat(2), domain_changes: fc.nat(1) }, { requiredKeys: [] }) },
	{ method: 'POST', path: MOCK_CONTROL_PATHS.events, valid: fc.record({ event_type: fc.constantFrom(...WEBHOOK_EVENT_TYPES) }) },
	{ method: 'PUT', path: MOCK_CONTROL_PATHS.faults, valid: fc.record({ faults: fc.array(fc.record({ path: fc.constantFrom('/v2/jobs', '/api/'), status: fc.constantFrom(429, 500, 503), times: fc.integer({ min: 1, max: 3 }) }), { maxLength: 2 }) }) },
	{ method: 'POST', path: MOCK_CONTROL_PATHS.redeliver, valid: fc.record({ webhook_event_id: eventId }) },
	{ method: 'POST', path: MOCK_CONTROL_PATHS.copies, valid: fc.record({ webhook_event_id: eventId, copies: fc.integer({ min: 1, max: 5 }), at_once: fc.boolean() }) },
	{ method: 'POST', path: MOCK_CONTROL_PATHS.reorder, valid: fc.record({ webhook_event_ids: fc.uniqueArray(eventId, { minLength: 1, maxLength: 2 }) }, { requiredKeys: [] }) },
	{ method: 'POST', path: MOCK_CONTROL_PATHS.failures, valid: fc.record({ webhook_id: fc.constantFrom('wh_unknown'), fail_next: fc.integer({ min: 1, max: 5 }), failure: fc.constantFrom('status', 'timeout', 'drop') }) },
	{ method: 'PUT', path: MOCK_CONTROL_PATHS.clock, valid: fc.record({ now: fc.constantFrom('2027-01-01', '2027-01-01T09:30:00Z', 1_800_000_000_000), frozen: fc.constant(true), advance_ms: fc.nat(60_000) }, { requiredKeys: ['frozen'] }) },
	{
		method: 'POST',
		path: '/__admin/mappings',
		valid: fc.record({
			request: fc.record({ method: fc.constantFrom('GET', 'POST', 'ANY'), urlPath: fc.constantFrom('/v2/jobs/job_stub', '/api/stubbed') }),
			response: fc.record({ status: fc.constantFrom(200, 404, 503), jsonBody: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: ['status'] }),
			priority: fc.integer({ min: 1, max: 10 }),
			name: fc.string({ minLength: 1, maxLength: 10 }),
		}, { requiredKeys: ['request', 'response'] }),
	},
	// A mapping id and a scenario the mock does not have: a valid body is a 404 that names it, a bad one a 400 or that 404.
	{ method: 'PUT', path: '/__admin/mappings/00000000-0000-4000-8000-000000000000', valid: fc.record({ request: fc.record({ method: fc.constantFrom('GET'), urlPath: fc.constant('/v2/jobs/job_stub') }), response: fc.record({ status: fc.constantFrom(200, 503) }) }) },
	{ method: 'PUT', path: '/__admin/scenarios/no-such-scenario/state', valid: fc.record({ state: fc.constantFrom('Started', 'Second') }, { requiredKeys: [] }) },
	{ method: 'POST', path: '/__admin/requests/count', valid: fc.record({ method: fc.constantFrom('GET', 'ANY'), urlPath: fc.constant('/v2/jobs') }, { requiredKeys: [] }) },
	{ method: 'POST', path: '/__admin/requests/remove', valid: fc.record({ method: fc.constantFrom('GET', 'ANY'), urlPathPattern: fc.constant('/v2/nothing-.*') }, { requiredKeys: [] }) },
];

/** Field names a change may touch: the route's own, nested ones the property reaches with a dotted name, and unknown ones. */
function changeOf(valid: Record<string, unknown>): fc.Arbitrary<Change> {
	const fields = [...Object.keys(valid), ...Object.entries(valid).flatMap(([key, value]) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value).map((inner) => `${key}.${inner}`) : []))];
	return fc.oneof(
		{ weight: 2, arbitrary: fc.constant<Change>({ field: null, value: undefined, none: true }) },
		{ weight: 6, arbitrary: fc.tuple(fc.constantFrom(...(fields.length > 0 ? fields : ['created'])), oddValue).map(([field, value]): Change => ({ field, value })) },
		{ weight: 1, arbitrary: fc.tuple(fc.constantFrom('unknown_field', 'Created', '__proto__', 'constructor'), oddValue).map(([field, value]): Change => ({ field, value: value ?? 1 })) },
		{ weight: 1, arbitrary: oddValue.filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)).map((value): Change => ({ field: null, value })) },
	);
}

function applied(valid: Record<string, unknown>, change: Change): unknown {
	if (change.none) return valid;
	if (change.field === null) return change.value;
	const body = structuredClone(valid);
	const parts = change.field.split('.');
	let at: Record<string, unknown> = body;
	for (const part of parts.slice(0, -1)) {
		if (typeof at[part] !== 'object' || at[part] === null) at[part] = {};
		at = at[part] as Record<string, unknown>;
	}
	const last = parts[parts.length - 1];
	if (change.value === undefined) delete at[last];
	else Object.defineProperty(at, last, { value: change.value, enumerable: true, writable: true, configurable: true });
	return body;
}

/** The body as sent: JSON text (its own text when the value has none: `undefined` is an empty body), or one of a few texts that are not JSON. */
const NOT_JSON = ['{', '{"a":1}}', 'null null', "{'a': 1}", '\u0000', '[1,]', '{"created": 01}'];

describe('property: control and admin bodies', () => {
	it('never 5xx; a refusal is a JSON error naming what is wrong and changes no state', async () => {
		// The route by its place in ROUTES, so a counterexample prints short.
		const cases = fc.nat(ROUTES.length - 1).chain((index) =>
			ROUTES[index].valid.chain((valid) => fc.record({ index: fc.constant(index), valid: fc.constant(valid), change: changeOf(valid), notJson: fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...NOT_JSON) }) })),
		);
		// The clock frozen from the start, so two reads of the state agree.
		await fetch(`${APP_URL}${MOCK_CONTROL_PATHS.clock}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"frozen": true}' });
		const seen = { refused: 0, taken: 0 };
		// The state after the last call: a refusal must leave it so (the state is read again only after a call that was taken).
		let last = await state();
		await fc.assert(
			fc.asyncProperty(cases, async ({ index, valid, change, notJson }) => {
				const route = ROUTES[index];
				const body = applied(valid, change);
				const text = notJson ?? (body === undefined ? '' : JSON.stringify(body));
				const response = await fetch(`${APP_URL}${route.path}`, { method: route.method, headers: { 'content-type': 'application/json' }, body: text });
				const answer = await response.text();
				const where = `${route.method} ${route.path} ${text.slice(0, 200)} → ${response.status} ${answer.slice(0, 300)}`;
				expect(response.status, where).toBeLessThan(500);
				if (response.status < 400) {
					seen.taken++;
					last = await state();
					return;
				}
				seen.refused++;
				// The admin routes answer WireMock's error body (src/wiremock/admin-error.mts), the control routes the API's.
				const admin = route.path.startsWith('/__admin') ? adminErrorSchema.parse(JSON.parse(answer)).errors[0] : undefined;
				const error = admin === undefined ? apiErrorSchema.parse(JSON.parse(answer)) : { status: admin.code === 10 ? 400 : admin.code, message: admin.detail };
				expect(error.status, where).toBe(response.status);
				// A valid body is refused only for what it names (an event id or webhook the mock does not have: 404) or a full store (409).
				if (change.none && notJson === null) expect([404, 409], where).toContain(response.status);
				// Named: the field changed (its last part), the body, or the record a valid body named (a 404's id).
				const named = [change.field?.split('.').pop(), 'body', 'JSON', 'No ', 'no '].filter((word): word is string => word !== undefined);
				if (notJson === null && change.field !== null) {
					expect(named.some((word) => error.message.includes(word)), where).toBe(true);
				}
				expect(await state(), `${where}: the state changed`).toBe(last);
			}),
			{ numRuns: 200, seed: 3611 },
		);
		// Both kinds reached: a property that refused everything (or nothing) would say little.
		expect(seen.refused).toBeGreaterThan(60);
		expect(seen.taken).toBeGreaterThan(20);
	}, 120_000);
});
