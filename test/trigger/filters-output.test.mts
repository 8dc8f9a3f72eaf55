// Trigger version 1.1: Output (the action node's shapes) and filters that drop events with a 200 and the reason, starting nothing.
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { loadOptions } from '../../harness/in-process/load-options.mts';
import { envelope, job, signal } from '../../harness/in-process/trigger-fixtures.mts';
import { RECORD_FIELDS, RECORD_ID_FIELDS } from '../../contract/record-fields';
import { eventKey } from '../../nodes/JobSignalsTrigger/dedupe-window';
import { JobSignalsTrigger } from '../../nodes/JobSignalsTrigger/JobSignalsTrigger.node';
import { SIMPLIFIED } from '../node/expected-shapes.mts';
import { createTrigger } from './trigger-under-test.mts';
import { WEBHOOK_EVENT_TYPES } from '../../contract/events';

const v11 = (parameters: INodeParameters = {}) => createTrigger({ typeVersion: 1.1, parameters });
const dropped = (reason: string) => ({ status: 200, body: { received: true, emitted: false, reason }, emitted: undefined });

describe('trigger version 1.1: Output', () => {
	it('is the default version; Output replaces version 1\'s Options and offers the event\'s and both records\' fields', () => {
		const { description } = new JobSignalsTrigger();
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
		const output = description.properties.find((p) => p.name === 'output')!;
		expect(output.default).toBe('simplified');
		expect(output.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 1.1 } }]);
		const fields = (description.properties.find((p) => p.name === 'fields')!.options as Array<{ value: string }>).map((o) => o.value);
		for (const field of [...RECORD_FIELDS.job, ...RECORD_FIELDS.signal, 'event_type', 'webhook_event_id', 'webhook_created_at', 'organization_id']) expect(fields).toContain(field);
		expect(description.properties.find((p) => p.name === 'options')!.displayOptions?.show?.['@version']).toEqual([1]);
	});

	it('Simplified: event_type, webhook_event_id and the action node\'s simplified record, at most 10 fields, for every event type', async () => {
		const trigger = v11();
		for (const type of WEBHOOK_EVENT_TYPES) {
			const answer = await trigger.deliver({ body: envelope(type) });
			expect(answer.body).toEqual({ received: true, emitted: true });
			expect(answer.output).toHaveLength(1);
			expect(Object.keys(answer.output![0]).length).toBeLessThanOrEqual(10);
			expect(answer.output![0].event_type).toBe(type);
		}
		const sentJob = envelope('job_created');
		const jobEvent = await trigger.deliver({ body: sentJob });
		expect(jobEvent.output).toEqual([
			{
				event_type: 'job_created',
				webhook_event_id: sentJob.webhook_event_id,
				...SIMPLIFIED.job(job),
				created_at: '2025-11-13T02:13:20.000Z',
			},
		]);
		const sentSignal = envelope('signal');
		const signalEvent = await trigger.deliver({ body: sentSignal });
		expect(signalEvent.output![0]).toEqual({
			event_type: 'signal',
			webhook_event_id: sentSignal.webhook_event_id,
			signal_id: signal.signal_id,
			company: 'Acme',
			domain: 'acme.example',
			type: 'domain-url-change',
			severity: 1,
			date: signal.date,
			evidence: 'Moved to acme.example',
			change: 'acme-old.example → acme.example',
		});
	});

	it('Raw: the record with every envelope field; Selected Fields: the chosen ones, nested by dotted path', async () => {
		const sent = envelope('signal');
		const raw = await v11({ output: 'raw' }).deliver({ body: sent });
		expect(raw.output).toEqual([
			{
				...signal,
				webhook_event_id: sent.webhook_event_id,
				webhook_id: sent.webhook_id,
				organization_id: sent.organization_id,
				event_type: 'signal',
				webhook_created_at: sent.created_at,
				webhook_updated_at: sent.updated_at,
			},
		]);
		const selected = await v11({ output: 'selected', fields: ['event_type', 'info.type', 'job_title'] }).deliver({ body: envelope('signal') });
		expect(selected.output).toEqual([{ event_type: 'signal', info: { type: 'domain-url-change' } }]);
	});

	it('Selected Fields starts with the ids chosen: webhook_event_id and the job\'s or the signal\'s, kept beside picked fields unless removed', async () => {
		const fields = new JobSignalsTrigger().description.properties.find((p) => p.name === 'fields')!;
		const ids = [RECORD_ID_FIELDS.job, RECORD_ID_FIELDS.signal, RECORD_ID_FIELDS.webhookEvent];
		expect(fields.default).toEqual(ids);
		expect(fields.description).toContain('The IDs (job_id, signal_id, webhook_event_id) are chosen to begin with; remove one to leave it out.');
		// Fields untouched: the event's id and its record's (a job has no signal_id, which is left out).
		const jobEvent = envelope('job_created');
		expect((await v11({ output: 'selected' }).deliver({ body: jobEvent })).output).toEqual([{ job_id: job.job_id, webhook_event_id: jobEvent.webhook_event_id }]);
		const signalEvent = envelope('signal');
		expect((await v11({ output: 'selected' }).deliver({ body: signalEvent })).output).toEqual([{ signal_id: signal.signal_id, webhook_event_id: signalEvent.webhook_event_id }]);
		// Fields picked beside the chosen ids, as the editor saves them: both.
		const picked = v11({ output: 'selected', fields: [...(fields.default as string[]), 'job_title', 'info.type'] });
		const jobAgain = envelope('job_updated');
		expect((await picked.deliver({ body: jobAgain })).output).toEqual([{ job_id: job.job_id, webhook_event_id: jobAgain.webhook_event_id, job_title: job.job_title }]);
		const signalAgain = envelope('signal');
		expect((await picked.deliver({ body: signalAgain })).output).toEqual([{ signal_id: signal.signal_id, webhook_event_id: signalAgain.webhook_event_id, info: { type: 'domain-url-change' } }]);
		// The ids removed: the picked fields alone.
		const removed = v11({ output: 'selected', fields: ['job_title', 'info.type'] });
		expect((await removed.deliver({ body: envelope('job_created') })).output).toEqual([{ job_title: job.job_title }]);
		expect((await removed.deliver({ body: envelope('signal') })).output).toEqual([{ info: { type: 'domain-url-change' } }]);
	});

	it('the execution still stores the event id: a repeat is answered as a duplicate, whatever the Output', async () => {
		const trigger = v11({ output: 'selected', fields: ['job_title'] });
		const sent = envelope('job_created');
		expect((await trigger.deliver({ body: sent })).output).toEqual([{ job_title: job.job_title }]);
		expect(trigger.staticData().seenEventKeys).toBe(`\n${eventKey(sent.webhook_event_id)}\n`);
		expect((await trigger.deliver({ body: sent })).body).toEqual({ received: true, emitted: false, reason: 'duplicate webhook_event_id' });
	});

	it('version 1 keeps its items and Options → Output', async () => {
		const sent = envelope('signal');
		expect((await createTrigger({ parameters: { options: { output: 'envelope' } } }).deliver({ body: sent })).output).toEqual([sent]);
	});
});

describe('trigger version 1.1: filters', () => {
	it('signal filters: group, category, type, minimum severity and match, direct and active only', async () => {
		const cases: Array<[INodeParameters, string | undefined]> = [
			[{ groups: ['problems'] }, 'signal group changes not selected'],
			[{ groups: ['changes'] }, undefined],
			[{ categories: ['tech', 'location'] }, 'signal category url not selected'],
			[{ categories: ['url'] }, undefined],
			[{ types: ['careers-url-change'] }, 'signal type domain-url-change not selected'],
			[{ types: ['careers-url-change', 'domain-url-change'] }, undefined],
			[{ minSeverity: 2 }, 'signal severity 1 below the minimum 2'],
			[{ minMatch: 3 }, 'signal match 2 below the minimum 3'],
			[{ minMatch: 2, minSeverity: 1 }, undefined],
			[{ directOnly: true, activeOnly: true }, undefined],
		];
		for (const [signalFilters, reason] of cases) {
			const answer = await v11({ signalFilters }).deliver({ body: envelope('signal') });
			if (reason) expect(answer, JSON.stringify(signalFilters)).toEqual(dropped(reason));
			else expect(answer.output, JSON.stringify(signalFilters)).toHaveLength(1);
		}
		const inferred = envelope('signal', { event_data: { ...signal, signal_classification: 'inferred', signal_recency: 'inactive' } });
		expect(await v11({ signalFilters: { directOnly: true } }).deliver({ body: inferred })).toEqual(dropped('signal not direct'));
		expect(await v11({ signalFilters: { activeOnly: true } }).deliver({ body: inferred })).toEqual(dropped('signal not active'));
		// Signal filters leave job events alone.
		expect((await v11({ signalFilters: { groups: ['problems'] } }).deliver({ body: envelope('job_created') })).output).toHaveLength(1);
	});

	it('a dropped event is not remembered: the same id passes once the filter lets it', async () => {
		const trigger = v11({ jobFilters: { companies: 'other.example' } });
		const sent = envelope('job_created');
		expect(await trigger.deliver({ body: sent })).toEqual(dropped('company not selected'));
		expect(trigger.staticData().seenEventKeys).toBeUndefined();
	});

	it('job filters: companies by domain (a pasted URL too) or source ID, one or many', async () => {
		for (const companies of ['acme.example', 'https://www.acme.example/careers', 'src_1', 'other.example, src_1', 'other.example,\nacme.example']) {
			expect((await v11({ jobFilters: { companies } }).deliver({ body: envelope('job_updated') })).output, companies).toHaveLength(1);
		}
		for (const companies of ['other.example', 'src_2, other.example']) {
			expect(await v11({ jobFilters: { companies } }).deliver({ body: envelope('job_deleted') })).toEqual(dropped('company not selected'));
		}
		// Job filters leave signal events alone.
		expect((await v11({ jobFilters: { companies: 'other.example' } }).deliver({ body: envelope('signal') })).output).toHaveLength(1);
	});

	it('a Companies entry that is neither a domain nor an ID stops the activation with what to fix', async () => {
		const trigger = v11({ jobFilters: { companies: 'acme.example, not a company!' } });
		await expect(trigger.activate()).rejects.toThrow('Job Filters → Companies: "not a company!" is neither a domain nor a source ID');
	});

	it('the category and type pickers follow the chosen groups and categories', async () => {
		const type = 'n8n-nodes-job-signals.jobSignalsTrigger';
		const categories = await loadOptions({ type, method: 'getFilterSignalCategories', parameters: { events: ['signal'], signalFilters: { groups: ['changes'] } } });
		expect(categories.map((o) => o.value)).toEqual(['url', 'content', 'tech', 'location']);
		expect(categories[0].name).toBe('URL (changes)');
		const types = await loadOptions({ type, method: 'getFilterSignalTypes', parameters: { events: ['signal'], signalFilters: { categories: ['tech', 'finance'] } } });
		expect(types.map((o) => o.value)).toEqual(['cash-flow-constraints', 'tech-change-planned', 'tech-change-completed']);
	});
});
