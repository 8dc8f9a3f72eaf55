// Output (node version 3): Simplified (at most 10 fields), Raw and Selected Fields on every operation that returns records.
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { RECORD_FIELDS, RECORD_ID_FIELDS } from '../../contract/record-fields';
import { OPERATIONS, type Operation } from '../../nodes/JobSignals/actions/operations';
import { loadPackages } from '../../harness/in-process/packages.mts';
import { aSource, useActionNode } from './action-node.mts';
import { allSignals, api, NODE_TYPE } from './direct.mts';
import { SIMPLIFIED } from './expected-shapes.mts';

type Json = Record<string, unknown>;

const run = useActionNode();

/** A field each kind's test picks beside its id (a nested one for signals). */
const PICKS = { signal: 'info.type', job: 'job_title', source: 'name', collection: 'name' } as const;

/** A record cut to these fields, a dotted path nested: what Selected Fields should give. */
function cut(record: Json, paths: readonly string[]): Json {
	const out: Json = {};
	for (const path of paths) {
		const [head, tail] = path.split('.');
		if (tail !== undefined) out[head] = { ...(out[head] as Json | undefined), [tail]: (record[head] as Json)[tail] };
		else if (record[head] !== undefined) out[head] = record[head];
	}
	return out;
}

/** Operations that return records, with parameters that return some, and the kind of record. */
async function recordOperations() {
	const { collectionId, source } = await aSource();
	const job = ((await api('/jobs')).data as Json[])[0];
	return [
		{ kind: 'signal', parameters: { resource: 'signal', operation: 'getAll', group: 'changes', directOnly: false, activeOnly: false, limit: 30 } },
		{ kind: 'job', parameters: { resource: 'job', operation: 'search', limit: 30 } },
		{ kind: 'job', parameters: { resource: 'job', operation: 'get', jobId: String(job.job_id) } },
		{ kind: 'job', parameters: { resource: 'job', operation: 'getAllForSource', source: { __rl: true, mode: 'id', value: String(source.source_id) }, limit: 30 } },
		{ kind: 'source', parameters: { resource: 'source', operation: 'get', source: { __rl: true, mode: 'id', value: String(source.source_id) } } },
		{ kind: 'source', parameters: { resource: 'source', operation: 'getAllInCollection', collection: { __rl: true, mode: 'id', value: collectionId }, limit: 30 } },
		{ kind: 'collection', parameters: { resource: 'collection', operation: 'getAll', returnAll: true } },
	] as const;
}

describe('Output (version 3)', () => {
	it('is offered on every operation that returns records, Simplified by default, with the record\'s fields to select', async () => {
		const packages = await loadPackages();
		const { description } = packages.nodeTypes.getByNameAndVersion(NODE_TYPE, 3);
		expect(description.defaultVersion).toBe(3);
		const outputs = description.properties.filter((p) => p.name === 'output');
		const shownFor = outputs.map((p) => `${String(p.displayOptions?.show?.resource)}:${String(p.displayOptions?.show?.operation)}`).sort();
		// Once per operation whose own parameters have it (the operation files, listed in operations.ts).
		const withOutput = Object.entries(OPERATIONS).flatMap(([resource, operations]) =>
			Object.entries(operations as Record<string, Operation>)
				.filter(([, operation]) => operation.description.some((p) => p.name === 'output'))
				.map(([operation]) => `${resource}:${operation}`),
		);
		expect(shownFor).toEqual(withOutput.sort());
		// The cases below run every operation with Output: a new one fails here until recordOperations() has a run of it.
		expect((await recordOperations()).map(({ parameters }) => `${parameters.resource}:${parameters.operation}`).sort()).toEqual(withOutput.sort());
		for (const output of outputs) {
			expect(output.default).toBe('simplified');
			expect((output.options as Array<{ value: string }>).map((o) => o.value)).toEqual(['simplified', 'raw', 'selected']);
			expect(output.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 3 } }]);
		}
		const signalFields = description.properties.find((p) => p.name === 'fields' && p.displayOptions?.show?.resource?.[0] === 'signal')!;
		expect((signalFields.options as Array<{ value: string }>).map((o) => o.value)).toEqual([...RECORD_FIELDS.signal].sort());
		expect(signalFields.displayOptions?.show?.output).toEqual(['selected']);
		// Version 2's Simplify switch stays where saved workflows have it, and only there.
		const simple = description.properties.filter((p) => p.name === 'simple');
		for (const property of simple) expect(property.displayOptions?.show?.['@version']).toEqual([2]);
	});

	it('Simplified gives every record at most 10 fields, on every operation', async () => {
		for (const { kind, parameters } of await recordOperations()) {
			const result = await run(parameters as INodeParameters);
			expect(result.error, `${kind} ${parameters.operation}`).toBeUndefined();
			expect(result.items.length, `${kind} ${parameters.operation}`).toBeGreaterThan(0);
			for (const item of result.items) {
				expect(Object.keys(item.json).length, `${kind} ${parameters.operation}`).toBeLessThanOrEqual(10);
				expect(item.pairedItem).toEqual({ item: 0 });
			}
		}
	});

	it('Simplified signals, jobs and sources carry the documented fields, times as ISO 8601', async () => {
		const raw = (await allSignals('/signals/changes', { direct_only: false, active_only: false })).slice(0, 30);
		const signals = await run({ resource: 'signal', operation: 'getAll', group: 'changes', directOnly: false, activeOnly: false, limit: 30 });
		signals.items.forEach((item, i) => {
			expect(item.json).toEqual(SIMPLIFIED.signal(raw[i]));
		});
		const job = ((await api('/jobs')).data as Json[])[0];
		const one = await run({ resource: 'job', operation: 'get', jobId: String(job.job_id) });
		expect(one.items[0].json).toEqual(SIMPLIFIED.job(job));
		const { source, collectionId } = await aSource();
		const company = await run({ resource: 'source', operation: 'get', source: { __rl: true, mode: 'id', value: String(source.source_id) } });
		expect(company.items[0].json).toEqual(SIMPLIFIED.source(source));
		const collections = (await api('/collections')).data as Json[];
		const listed = await run({ resource: 'collection', operation: 'getAll', returnAll: true });
		expect(listed.items.map((i) => i.json)).toEqual(collections.map(SIMPLIFIED.collection));
		expect(listed.items.some((i) => i.json.collection_id === collectionId)).toBe(true);
	});

	it('Raw returns the service\'s records unchanged', async () => {
		const raw = (await allSignals('/signals/problems', { direct_only: true, active_only: true })).slice(0, 5);
		const result = await run({ resource: 'signal', operation: 'getAll', group: 'problems', limit: 5, output: 'raw' });
		expect(result.items.map((i) => i.json)).toEqual(raw);
		const collections = await run({ resource: 'collection', operation: 'getAll', returnAll: true, output: 'raw' });
		expect(collections.items.map((i) => i.json)).toEqual((await api('/collections')).data);
	});

	it('Selected Fields keeps only the chosen fields, nested ones by dotted path; none chosen is an error that says what to do', async () => {
		const raw = (await allSignals('/signals/problems', { direct_only: true, active_only: true })).slice(0, 5);
		const result = await run({ resource: 'signal', operation: 'getAll', group: 'problems', limit: 5, output: 'selected', fields: ['signal_id', 'info.type', 'url_source'] });
		expect(result.items.map((i) => i.json)).toEqual(raw.map((s) => ({ signal_id: s.signal_id, info: { type: (s.info as Json).type }, url_source: s.url_source })));
		const job = ((await api('/jobs')).data as Json[])[0];
		// A field the record lacks (deleted_at of a job that exists) is left out, not set to null.
		const one = await run({ resource: 'job', operation: 'get', jobId: String(job.job_id), output: 'selected', fields: ['job_title', 'deleted_at'] });
		expect(one.items.map((i) => i.json)).toEqual([{ job_title: job.job_title }]);
		// n8n itself stops an empty Fields list; an expression that gives none reaches the node.
		const none = await run({ resource: 'job', operation: 'get', jobId: String(job.job_id), output: 'selected', fields: '={{ [] }}' });
		expect(none.error?.message).toBe('Output is Selected Fields, but no field is chosen');
		expect(none.error?.description).toBe('Choose at least one field in Fields, or set Output to Simplified or Raw.');
	});

	it('Selected Fields starts with the record\'s id chosen, for every kind: picked fields come with it, unless the user removes it', async () => {
		const { description } = (await loadPackages()).nodeTypes.getByNameAndVersion(NODE_TYPE, 3);
		for (const { kind, parameters } of await recordOperations()) {
			const label = `${kind} ${parameters.operation}`;
			const id = RECORD_ID_FIELDS[kind];
			const fields = description.properties.filter(
				(p) => p.name === 'fields' && p.displayOptions?.show?.resource?.includes(parameters.resource) && p.displayOptions?.show?.operation?.includes(parameters.operation),
			);
			// The id shows as chosen in Fields, so the user sees it and can remove it.
			expect(fields.map((p) => p.default), label).toEqual([[id]]);
			expect(fields[0].description, label).toContain(`The record's ID (${id}) is chosen to begin with; remove it to leave it out.`);
			const raw = (await run({ ...parameters, output: 'raw' } as INodeParameters)).items.map((i) => i.json);
			expect(raw.length, label).toBeGreaterThan(0);
			// Fields untouched: the id alone.
			const untouched = await run({ ...parameters, output: 'selected' } as INodeParameters);
			expect(untouched.items.map((i) => i.json), label).toEqual(raw.map((r) => ({ [id]: r[id] })));
			// A field picked beside the chosen id, as the editor saves it: both.
			const picked = await run({ ...parameters, output: 'selected', fields: [...(fields[0].default as string[]), PICKS[kind]] } as INodeParameters);
			expect(picked.items.map((i) => i.json), label).toEqual(raw.map((r) => cut(r, [id, PICKS[kind]])));
			// The id removed (as a workflow saved before it was chosen to begin with): the picked field alone.
			const removed = await run({ ...parameters, output: 'selected', fields: [PICKS[kind]] } as INodeParameters);
			expect(removed.items.map((i) => i.json), label).toEqual(raw.map((r) => cut(r, [PICKS[kind]])));
			for (const item of removed.items) expect(item.json, label).not.toHaveProperty(id);
		}
	});

	it('Include Totals still puts the totals item first', async () => {
		const result = await run({ resource: 'job', operation: 'search', limit: 3, options: { includeTotals: true } });
		expect(Object.keys(result.items[0].json)).toEqual(['totals', 'resume_at']);
		expect(result.items.slice(1).map((i) => Object.keys(i.json).length)).toEqual([8, 8, 8]);
	});
});
