// The trigger's webhook function, run through n8n-core's WebhookContext (see harness.mts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../contract/events';
import { eventKey, PERSISTED_WINDOW, WINDOW_SIZE } from '../../nodes/JobSignalsTrigger/dedupe-window';
import { MAX_BODY_BYTES } from '../../nodes/JobSignalsTrigger/receive';
import { envelope, job, signal } from '../../harness/in-process/trigger-fixtures.mts';
import { createTrigger, createTriggerInNewProcess } from './trigger-under-test.mts';

describe('trigger webhook: events', () => {
	it.each(WEBHOOK_EVENT_TYPES)('emits a %s event as its data plus the envelope fields', async (eventType) => {
		const trigger = createTrigger();
		const sent = envelope(eventType);
		const answer = await trigger.deliver({ body: sent });
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({ received: true, emitted: true });
		expect(answer.emitted).toEqual([
			{
				...sent.event_data,
				event_type: eventType,
				webhook_event_id: sent.webhook_event_id,
				webhook_created_at: sent.created_at,
				webhook_updated_at: sent.updated_at,
			},
		]);
	});

	it('keeps the job\'s own times and deleted_at next to the envelope\'s', async () => {
		const answer = await createTrigger().deliver({ body: envelope('job_deleted') });
		expect(answer.emitted?.[0]).toMatchObject({
			job_id: job.job_id,
			created_at: job.created_at,
			updated_at: job.updated_at,
			deleted_at: 1_763_000_200,
			webhook_created_at: 1_763_000_300,
		});
	});

	it('emits the whole envelope when the option asks for it', async () => {
		const trigger = createTrigger({ parameters: { options: { output: 'envelope' } } });
		const sent = envelope('signal');
		expect((await trigger.deliver({ body: sent })).emitted).toEqual([sent]);
		expect(sent.event_data).toEqual(signal);
	});

	it('acknowledges an event type that is not selected, without emitting or remembering it', async () => {
		const trigger = createTrigger({ parameters: { events: ['job_created'] } });
		const answer = await trigger.deliver({ body: envelope('signal') });
		expect(answer).toEqual({
			status: 200,
			body: { received: true, emitted: false, reason: 'event type not selected' },
			emitted: undefined,
		});
		expect(trigger.staticData().seenEventKeys).toBeUndefined();
		expect((await trigger.deliver({ body: envelope('job_created') })).emitted).toHaveLength(1);
	});
});

describe('trigger webhook: duplicates', () => {
	it('starts the workflow once per webhook_event_id, across reloads of the static data', async () => {
		const trigger = createTrigger();
		const sent = envelope('job_created');
		expect((await trigger.deliver({ body: sent })).emitted).toHaveLength(1);
		// Each deliver() loads a new Workflow from the saved static data, as n8n does per request.
		const again = await trigger.deliver({ body: { ...sent, updated_at: sent.updated_at + 5 } });
		expect(again).toEqual({
			status: 200,
			body: { received: true, emitted: false, reason: 'duplicate webhook_event_id' },
			emitted: undefined,
		});
		expect((await trigger.deliver({ body: envelope('job_created') })).emitted).toHaveLength(1);
	});

	it('recognises a repeat in a restarted process, from the static data the execution saved', async () => {
		// Static data that is not empty when the request loads it (automatic registration keeps webhookId there).
		const trigger = createTrigger({ savedStaticData: JSON.stringify({ 'node:Job Signals Trigger': { webhookId: 'whk_1' } }) });
		const sent = envelope('job_created');
		expect((await trigger.deliver({ body: sent })).emitted).toHaveLength(1);
		expect(trigger.staticData()).toEqual({ webhookId: 'whk_1', dedupeWindow: 1, seenEventKeys: `\n${eventKey(sent.webhook_event_id)}\n`, seenEventCount: 1 });
		const restarted = await createTriggerInNewProcess({ workflowId: trigger.workflowId, savedStaticData: trigger.savedStaticData() });
		expect((await restarted.deliver({ body: sent })).emitted).toBeUndefined();
		expect((await restarted.deliver({ body: envelope('job_created') })).emitted).toHaveLength(1);
	});

	it('on a queue-mode worker (static data not loaded) writes nothing, so the saved static data stays whole', async () => {
		const saved = JSON.stringify({ 'node:Job Signals Trigger': { webhookId: 'whk_1', dedupeWindow: 1, seenEventKeys: `\n${eventKey('old')}\n`, seenEventCount: 1 } });
		const trigger = createTrigger({ queueWorker: true, savedStaticData: saved });
		expect((await trigger.deliver({ body: envelope('job_created') })).emitted).toHaveLength(1);
		expect(trigger.savedStaticData()).toBe(saved);
		expect((await trigger.deliver({ body: envelope('job_created', { webhook_event_id: 'old' }) })).emitted).toBeUndefined();
	});

	it('on a queue-mode worker stores each id in n8n\'s database: a repeat at another webhook process starts an execution that passes nothing on', async () => {
		const first = createTrigger({ queueWorker: true });
		const sent = envelope('job_created');
		expect((await first.deliver({ body: sent })).output).toEqual([expect.objectContaining({ webhook_event_id: sent.webhook_event_id })]);
		// Another webhook process: the node's memory is not shared, the database is.
		const other = await createTriggerInNewProcess({ queueWorker: true, workflowId: first.workflowId, savedStaticData: first.savedStaticData() });
		const repeat = await other.deliver({ body: sent });
		expect(repeat.emitted).toHaveLength(1);
		expect(repeat.output).toEqual([]);
		expect((await other.deliver({ body: envelope('job_created') })).output).toHaveLength(1);
	});

	it(`on a queue-mode worker keeps the newest ${WINDOW_SIZE} ids in the database and never fails when it is full`, async () => {
		const trigger = createTrigger({ queueWorker: true });
		const first = envelope('job_created', { webhook_event_id: 'db-first' });
		await trigger.deliver({ body: first });
		for (let i = 0; i < WINDOW_SIZE; i++) {
			expect((await trigger.deliver({ body: envelope('job_created', { webhook_event_id: `db-${i}` }) })).output).toHaveLength(1);
		}
		const other = await createTriggerInNewProcess({ queueWorker: true, workflowId: trigger.workflowId, savedStaticData: trigger.savedStaticData() });
		// The newest are still stored; "db-first", one past the history, was dropped, so it passes again.
		expect((await other.deliver({ body: envelope('job_created', { webhook_event_id: `db-${WINDOW_SIZE - 1}` }) })).output).toEqual([]);
		expect((await other.deliver({ body: envelope('job_created', { webhook_event_id: 'db-1' }) })).output).toEqual([]);
		expect((await other.deliver({ body: first })).output).toHaveLength(1);
	});

	it('never treats a test delivery (Listen for test event) as a repeat, nor remembers it', async () => {
		const trigger = createTrigger({ mode: 'manual' });
		const sent = envelope('signal');
		expect((await trigger.deliver({ body: sent })).emitted).toHaveLength(1);
		expect((await trigger.deliver({ body: sent })).emitted).toHaveLength(1);
		expect(trigger.staticData().seenEventKeys).toBeUndefined();
	});

	it('starts once for two simultaneous deliveries of one id in one process', async () => {
		const trigger = createTrigger();
		const sent = envelope('signal');
		const answers = await Promise.all([trigger.deliver({ body: sent }), trigger.deliver({ body: sent })]);
		expect(answers.filter((a) => a.emitted !== undefined)).toHaveLength(1);
		expect(answers.map((a) => a.status)).toEqual([200, 200]);
	});

	it('writes the static data once for events claimed together: an execution whose events an earlier write holds leaves it to a later one', async () => {
		const trigger = createTrigger();
		// Five deliveries at once: all five are claimed before the first execution runs, as under load in n8n.
		const sent = Array.from({ length: 5 }, () => envelope('job_created'));
		const answers = await Promise.all(sent.map((body) => trigger.deliver({ body })));
		expect(answers.map((a) => a.emitted?.length)).toEqual([1, 1, 1, 1, 1]);
		// The first execution writes all five; the next three leave it to the one after; the last writes again.
		expect(trigger.staticDataWrites()).toBe(2);
		expect(String(trigger.staticData().seenEventKeys).slice(1, -1).split('\n').sort()).toEqual(sent.map((e) => eventKey(e.webhook_event_id)).sort());
		const restarted = await createTriggerInNewProcess({ workflowId: trigger.workflowId, savedStaticData: trigger.savedStaticData() });
		for (const body of sent) expect((await restarted.deliver({ body })).emitted).toBeUndefined();
	});

	it('writes the static data in every execution when deliveries come one after another', async () => {
		const trigger = createTrigger();
		for (let i = 1; i <= 3; i++) {
			await trigger.deliver({ body: envelope('signal') });
			expect(trigger.staticDataWrites()).toBe(i);
		}
	});

	it('does not confuse an id with a prefix or suffix of another', async () => {
		const trigger = createTrigger();
		for (const id of ['abc', 'ab', 'bc', 'abcd', 'xabc']) {
			expect((await trigger.deliver({ body: envelope('signal', { webhook_event_id: id }) })).emitted).toHaveLength(1);
		}
	});

	it(`keeps the last ${PERSISTED_WINDOW} events in static data, as keys of 12 characters whatever the id's length`, async () => {
		const trigger = createTrigger();
		const long = (i: number) => `${'x'.repeat(190)}-${i}`;
		// More than twice the window: the process still holds claims the persisted window has dropped.
		const sent = 2 * PERSISTED_WINDOW + 1;
		for (let i = 0; i < sent; i++) {
			expect((await trigger.deliver({ body: envelope('job_created', { webhook_event_id: long(i) }) })).emitted).toHaveLength(1);
		}
		const keys = String(trigger.staticData().seenEventKeys).slice(1, -1).split('\n');
		expect(trigger.staticData().seenEventCount).toBe(PERSISTED_WINDOW);
		expect(keys).toEqual(Array.from({ length: PERSISTED_WINDOW }, (_, i) => eventKey(long(sent - PERSISTED_WINDOW + i))));
		expect(keys.every((key) => /^[\w-]{12}$/.test(key))).toBe(true);
		// After a restart only the saved window is known: the newest PERSISTED_WINDOW are repeats, the one before is new.
		const restarted = await createTriggerInNewProcess({ workflowId: trigger.workflowId, savedStaticData: trigger.savedStaticData() });
		expect((await restarted.deliver({ body: envelope('job_created', { webhook_event_id: long(sent - PERSISTED_WINDOW) }) })).emitted).toBeUndefined();
		expect((await restarted.deliver({ body: envelope('job_created', { webhook_event_id: long(sent - 1) }) })).emitted).toBeUndefined();
		expect((await restarted.deliver({ body: envelope('job_created', { webhook_event_id: long(sent - PERSISTED_WINDOW - 1) }) })).emitted).toHaveLength(1);
	});

	it(`keeps a bounded window of the last ${WINDOW_SIZE} ids in the process`, async () => {
		const trigger = createTrigger();
		const first = envelope('job_created', { webhook_event_id: 'first' });
		await trigger.deliver({ body: first });
		for (let i = 0; i < WINDOW_SIZE - 1; i++) {
			await trigger.deliver({ body: envelope('job_created', { webhook_event_id: `whe_${i}` }) });
		}
		// "first" is long gone from the persisted window; the process still knows it.
		expect(trigger.staticData().seenEventCount).toBe(PERSISTED_WINDOW);
		expect((await trigger.deliver({ body: first })).emitted).toBeUndefined();
		// One more new id pushes "first" out of the window: it would now be emitted again.
		await trigger.deliver({ body: envelope('job_created', { webhook_event_id: 'one-more' }) });
		expect((await trigger.deliver({ body: first })).emitted).toHaveLength(1);
	});
});

describe('trigger webhook: bad input', () => {
	const good = envelope('job_created');
	const withoutField = (field: string) => Object.fromEntries(Object.entries(good).filter(([key]) => key !== field));
	it.each<[string, unknown, RegExp]>([
		['no body', undefined, /the body is missing, not an object/],
		['an array', [good], /the body is a list, not an object/],
		['a string', 'hello', /the body is a string, not an object/],
		['no webhook_event_id', withoutField('webhook_event_id'), /webhook_event_id/],
		['an empty webhook_event_id', { ...good, webhook_event_id: '' }, /webhook_event_id/],
		['a numeric webhook_event_id', { ...good, webhook_event_id: 7 }, /webhook_event_id/],
		['a webhook_event_id with a newline', { ...good, webhook_event_id: 'a\nb' }, /webhook_event_id/],
		['a 201-character webhook_event_id', { ...good, webhook_event_id: 'x'.repeat(201) }, /webhook_event_id/],
		['no webhook_id', withoutField('webhook_id'), /webhook_id/],
		['no organization_id', withoutField('organization_id'), /organization_id/],
		['an unknown event_type', { ...good, event_type: 'job_moved' }, /event_type is a string, not one of job_created, /],
		['event_data null', { ...good, event_data: null }, /event_data/],
		['event_data an array', { ...good, event_data: [job] }, /event_data/],
		['a job event without job_id', { ...good, event_data: { job_title: 'x' } }, /job_id/],
		['created_at as a string', { ...good, created_at: '1763000000' }, /created_at/],
		['a negative updated_at', { ...good, updated_at: -1 }, /updated_at/],
	])('answers 400 for %s and emits nothing', async (_name, body, reason) => {
		const trigger = createTrigger();
		const answer = await trigger.deliver({ body });
		expect(answer.status).toBe(400);
		expect(answer.emitted).toBeUndefined();
		expect((answer.body as { error: string }).error).toMatch(reason);
		expect(trigger.staticData().seenEventKeys).toBeUndefined();
	});

	it('refuses a body over the size limit with 413, by its raw bytes or its declared length', async () => {
		const trigger = createTrigger();
		const body = envelope('job_created');
		const big = await trigger.deliver({ body, rawBody: Buffer.alloc(MAX_BODY_BYTES + 1) });
		expect(big.status).toBe(413);
		expect(big.emitted).toBeUndefined();
		const declared = await trigger.deliver({ body, headers: { 'content-length': String(MAX_BODY_BYTES + 1) } });
		expect(declared.status).toBe(413);
		const atLimit = await trigger.deliver({ body, rawBody: Buffer.alloc(MAX_BODY_BYTES) });
		expect(atLimit.emitted).toHaveLength(1);
	});

	it('answers 200 or 400 to any JSON value, never throws, and emits only valid envelopes', async () => {
		const trigger = createTrigger();
		const field = fc.oneof(fc.constant(undefined), fc.jsonValue());
		const bodies = fc.oneof(
			fc.jsonValue(),
			fc.record({
				webhook_event_id: fc.oneof(fc.string(), field),
				webhook_id: fc.oneof(fc.constant('wh'), field),
				organization_id: fc.oneof(fc.constant('org'), field),
				event_type: fc.oneof(fc.constantFrom(...WEBHOOK_EVENT_TYPES), field),
				event_data: fc.oneof(fc.constant(job), fc.dictionary(fc.string(), fc.jsonValue()), field),
				created_at: fc.oneof(fc.nat(), field),
				updated_at: fc.oneof(fc.nat(), field),
			}),
		);
		await fc.assert(
			fc.asyncProperty(bodies, async (body) => {
				const answer = await trigger.deliver({ body });
				expect([200, 400]).toContain(answer.status);
				if (answer.emitted) expect(answer.emitted[0]).toHaveProperty('webhook_event_id');
			}),
			{ numRuns: 300, seed: 3600 },
		);
	});
});
