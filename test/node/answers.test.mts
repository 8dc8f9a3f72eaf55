// The contract's answer rules (contract/answers.ts) against the zod schemas they restate, and, endpoint by endpoint
// of the contract's table (contract/endpoints.ts), against the mock's real answers.
import { describe, expect, it } from 'vitest';
import { ANSWERS, type AnswerName, type Rule } from '../../contract/answers';
import { ENDPOINTS, fillPath, type EndpointName } from '../../contract/endpoints';
import { findCategory } from '../../contract/hierarchy';
import * as contract from '../../contract/schemas';
import { problemIn } from '../../nodes/shared/transport/check-answer.ts';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { api } from './direct.mts';

// Started for its hooks: api() calls reach it through msw.
useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

/** The rules of records (checked by identifier only) and of lists of them; every other rule is an envelope, which holds every field of its schema. */
const RECORD_RULES: ReadonlySet<AnswerName> = new Set(['job', 'source', 'webhookSetting', 'webhookSettings']);

interface Def {
	type: string;
	shape?: Record<string, { _zod: { def: Def } }>;
	innerType?: { _zod: { def: Def } };
	element?: { _zod: { def: Def } };
	options?: unknown[];
}
const defOf = (schema: unknown) => (schema as { _zod: { def: Def } })._zod.def;

/** Where the rule and the schema disagree, e.g. "pagination.has_next: rule boolean, schema string". */
function disagreements(rule: Rule, schema: unknown, full: boolean, path = 'answer'): string[] {
	const def = defOf(schema);
	const kind = (...types: string[]) => (types.includes(def.type) ? [] : [`${path}: rule ${JSON.stringify(rule)}, schema ${def.type}`]);
	if (typeof rule === 'string') {
		if (def.type === 'optional') return [`${path}: required in the rule, optional in the schema`];
		if (rule === 'string' || rule === 'id' || rule === 'deliveryId') return kind('string', 'enum');
		if (rule === 'boolean') return kind('boolean');
		return kind('number');
	}
	if ('oneOf' in rule) return kind('enum');
	// A union of objects (a webhook event's job or signal) fits an object rule that each of them fits.
	if (def.type === 'union') return (def.options ?? []).flatMap((option) => disagreements(rule, option, false, path));
	if ('optional' in rule) return def.type === 'optional' ? disagreements(rule.optional, def.innerType, full, path) : [`${path}: optional in the rule, required in the schema`];
	if ('list' in rule) return def.type === 'array' ? disagreements(rule.list, def.element, full, `${path}[]`) : kind('array');
	if ('records' in rule) {
		if (def.type !== 'array') return kind('array');
		return disagreements({ object: { [rule.records]: 'id' } }, def.element, false, `${path}[]`);
	}
	if (def.type !== 'object') return kind('object');
	const shape = def.shape ?? {};
	const out = Object.entries(rule.object).flatMap(([name, fieldRule]) =>
		shape[name] ? disagreements(fieldRule, shape[name], full, `${path}.${name}`) : [`${path}.${name}: in the rule, not in the schema`],
	);
	if (full) for (const name of Object.keys(shape)) if (!(name in rule.object)) out.push(`${path}.${name}: in the schema, not in the rule`);
	return out;
}

describe('contract/answers.ts', () => {
	it('restates the zod contract: same fields, same kinds, envelopes in full', () => {
		const found = (Object.keys(ANSWERS) as AnswerName[]).flatMap((name) => disagreements(ANSWERS[name], contract.ANSWER_SCHEMAS[name], !RECORD_RULES.has(name), name));
		expect(found).toEqual([]);
	});

	it('the webhook event rule names the same event types as webhookEventSchema', () => {
		expect(ANSWERS.webhookEvent.object.event_type.oneOf).toEqual(contract.webhookEventSchema.shape.event_type.options);
	});

	it('would notice a rule that drifts from the contract', () => {
		const drifted: Rule = { object: { data: { records: 'job_id' }, metrics: { object: { count_jobs: 'string' } } } };
		expect(disagreements(drifted, contract.jobsEnvelopeSchema, true, 'jobsPage')).toEqual([
			'jobsPage.metrics.count_jobs: rule "string", schema number',
			'jobsPage.metrics.updated_at: in the schema, not in the rule',
			'jobsPage.cursor_job_id: in the schema, not in the rule',
		]);
	});

	it('the mock\'s real answers of every GET endpoint under the API URL fit their rules', async () => {
		const { data: collections } = await api('/collections');
		const [collection] = collections as { collection_id: string }[];
		const sources = await api(`/collections/${collection.collection_id}/sources`);
		const [source] = sources.data as { source_id: string; url_source: string }[];
		const search = await api('/jobs');
		const [job] = search.data as { job_id: string }[];
		const params = {
			group: 'problems',
			category: 'it',
			type: findCategory('problems', 'it')!.types[0],
			collection_id: collection.collection_id,
			source_id: source.source_id,
			url_source: source.url_source,
			job_id: job.job_id,
		};
		const read = (Object.keys(ENDPOINTS) as EndpointName[]).filter((name) => ENDPOINTS[name].on === 'api' && ENDPOINTS[name].method === 'GET');
		expect(read.length).toBeGreaterThanOrEqual(12);
		for (const name of read) {
			const { path, answer } = ENDPOINTS[name];
			if (answer === 'none') continue;
			expect(problemIn(await api(fillPath(path, params)), ANSWERS[answer]), name).toBeUndefined();
		}
		const secondPage = await api('/signals/problems/it', { page: 2, per_page: 3, direct_only: false, active_only: false });
		expect(problemIn(secondPage, ANSWERS.signalsPage)).toBeUndefined();
	});

	it('says what is wrong, first problem only, without quoting the service\'s text', () => {
		expect(problemIn({ data: [{ job_id: 'a' }, { job_id: '' }], metrics: { count_jobs: 2, updated_at: 1 } }, ANSWERS.jobSearchPage)).toBe(
			'data[1].job_id is an empty string, not an identifier',
		);
		expect(problemIn({ data: [], metrics: { count_jobs: -1, updated_at: 1 } }, ANSWERS.jobSearchPage)).toBe('metrics.count_jobs is the number -1, not a whole number ≥ 0');
		expect(problemIn({ data: ['secret text'] }, ANSWERS.collections)).toBe('data[0] is a string, not an object');
		expect(problemIn([], ANSWERS.job)).toBe('the answer is a list, not an object');
		expect(problemIn({ data: [], cursor_job_id: 5, metrics: { count_jobs: 0, updated_at: 0 } }, ANSWERS.jobsPage)).toBe('cursor_job_id is the number 5, not a string');
	});
});
