// Signal → Get Many through n8n-core's engine against the in-process mock.
import { describe, expect, it } from 'vitest';
import { SIGNAL_CATEGORIES } from '../../contract/hierarchy';
import { useMockService, SMALL_MOCK } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { allSignals, NODE_TYPE } from './direct.mts';

// A high limit makes the mock report its budget in headers, which the node's pacer follows.
const mock = useMockService({ ...SMALL_MOCK, signals: 6000, rateLimit: 1_000_000 });

const signals = (parameters: Record<string, unknown>, input?: Record<string, unknown>[]) =>
	runNode({
		type: NODE_TYPE,
		parameters: { resource: 'signal', operation: 'getAll', output: 'raw', ...parameters },
		credentials: { jobSignalsApi: mock.credentials },
		input,
	});

const queries = () => mock.requests().map((r) => new URL(r.url));

describe('Signal → Get Many', () => {
	it('Return All walks every page at per_page 1000 and matches the API record for record', async () => {
		const run = await signals({ group: 'problems', directOnly: false, activeOnly: false, returnAll: true });
		expect(run.error).toBeUndefined();
		const calls = queries();
		const expected = await allSignals('/signals/problems', { direct_only: false, active_only: false });
		expect(expected.length).toBeGreaterThan(2000);
		expect(run.items.map((i) => i.json)).toEqual(expected);
		expect(calls).toHaveLength(Math.ceil(expected.length / 1000));
		expect(calls.map((u) => u.searchParams.get('per_page'))).toEqual(calls.map(() => '1000'));
		expect(calls.map((u) => u.searchParams.get('page'))).toEqual(calls.map((_, i) => String(i + 1)));
		for (const item of run.items) expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('Limit asks for only what it needs: per_page = limit, one call', async () => {
		const run = await signals({ group: 'changes', returnAll: false, limit: 30 });
		expect(run.items).toHaveLength(30);
		const calls = queries();
		expect(calls).toHaveLength(1);
		expect(calls[0].searchParams.get('per_page')).toBe('30');
		expect(calls[0].searchParams.get('direct_only')).toBe('true');
		expect(calls[0].searchParams.get('active_only')).toBe('true');
		for (const item of run.items) expect(item.json).toMatchObject({ signal_classification: 'direct', signal_recency: 'active' });
	});

	it('Limit above 1000 takes two pages and stops there', async () => {
		const run = await signals({ group: 'problems', directOnly: false, activeOnly: false, returnAll: false, limit: 1500 });
		expect(run.items).toHaveLength(1500);
		expect(queries().map((u) => u.searchParams.get('page'))).toEqual(['1', '2']);
		const expected = await allSignals('/signals/problems', { direct_only: false, active_only: false });
		expect(run.items.map((i) => i.json)).toEqual(expected.slice(0, 1500));
	});

	it('category and type select their endpoints, for both groups', async () => {
		for (const group of ['problems', 'changes'] as const) {
			const category = SIGNAL_CATEGORIES.find((c) => c.group === group)!;
			const type = category.types[0];
			const ofCategory = await signals({ group, category: category.id, directOnly: false, activeOnly: false, returnAll: true });
			expect(ofCategory.items.length).toBeGreaterThan(0);
			for (const item of ofCategory.items) expect(item.json.info).toMatchObject({ group, category: category.id });
			const ofType = await signals({ group, category: category.id, type, directOnly: false, activeOnly: false, returnAll: true });
			expect(ofType.items.map((i) => i.json)).toEqual(
				await allSignals(`/signals/${group}/${category.id}/${type}`, { direct_only: false, active_only: false }),
			);
		}
		const paths = queries().map((u) => u.pathname);
		expect(paths).toContain('/v2/signals/problems/finance');
		expect(paths).toContain('/v2/signals/changes/url/domain-url-change');
	});

	it('ids the bundled list does not know still reach the service (it may have added them); its 404 is a clear error; continueOnFail turns it into an error item', async () => {
		const before = mock.requests().length;
		const bad = await signals({ group: 'problems', category: 'weather', returnAll: true });
		expect(bad.error?.message).toBe('Unknown category "weather" in group "problems"');
		expect(bad.error?.httpCode).toBe('404');
		expect(bad.error?.description).toMatch(/^The service does not know this group, category or type\. Pick one from the lists/);
		const badType = await signals({ group: 'changes', category: 'url', type: 'cash-flow-constraints', returnAll: true });
		expect(badType.error?.message).toBe('Unknown type "cash-flow-constraints" in category "changes/url"');
		const badGroup = await signals({ group: '={{ "rumours" }}', returnAll: true });
		expect(badGroup.error?.message).toBe('Unknown signal group "rumours"');
		expect(queries().slice(before).map((u) => u.pathname)).toEqual([
			'/v2/signals/problems/weather',
			'/v2/signals/changes/url/cash-flow-constraints',
			'/v2/signals/rumours',
		]);

		const mixed = await runNode({
			type: NODE_TYPE,
			parameters: { resource: 'signal', operation: 'getAll', group: 'problems', category: '={{ $json.category }}', returnAll: false, limit: 2 },
			credentials: { jobSignalsApi: mock.credentials },
			input: [{ category: 'it' }, { category: 'weather' }, { category: 'finance' }],
			onError: 'continueRegularOutput',
		});
		expect(mixed.error).toBeUndefined();
		expect(mixed.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }, { item: 2 }, { item: 2 }]);
		expect(mixed.items[2].json).toEqual({ error: 'Unknown category "weather" in group "problems"', errorDescription: expect.stringMatching(/^The service does not know/), httpCode: '404' });
	});

	it('display names given by expression map to ids, in any case', async () => {
		const before = mock.requests().length;
		const byName = await signals({ group: '={{ "Problems" }}', category: '={{ "IT" }}', returnAll: false, limit: 3 });
		expect(byName.error).toBeUndefined();
		const typeByName = await signals({ group: 'problems', category: '={{ "Sales And Marketing" }}', type: '={{ "low conversion rates" }}', returnAll: false, limit: 3 });
		expect(typeByName.error).toBeUndefined();
		const changes = await signals({ group: 'changes', category: '={{ "url" }}', type: '={{ "Domain URL Change" }}', returnAll: false, limit: 3 });
		expect(changes.error).toBeUndefined();
		expect(queries().slice(before).map((u) => u.pathname)).toEqual([
			'/v2/signals/problems/it',
			'/v2/signals/problems/sales-and-marketing/low-conversion-rates',
			'/v2/signals/changes/url/domain-url-change',
		]);
		expect(byName.items.length).toBeGreaterThan(0);
		for (const item of byName.items) expect(item.json.info).toMatchObject({ group: 'problems', category: 'it' });
	});

	it('a parameter of the wrong kind by expression is refused, naming the field, before any call', async () => {
		const before = queries().length;
		const directOnly = await signals({ group: 'problems', directOnly: '={{ "yes" }}', returnAll: false, limit: 3 });
		expect(directOnly.error?.message).toBe('Direct Only must be true or false, got "yes"');
		const category = await signals({ group: 'problems', category: '={{ 42 }}', returnAll: false, limit: 3 });
		expect(category.error?.message).toBe('Category must be text, got 42');
		expect(queries().length).toBe(before);
	});

	it('a Limit below 1 is refused', async () => {
		const run = await signals({ group: 'problems', returnAll: false, limit: 0 });
		expect(run.error?.message).toBe('Limit must be a whole number of at least 1, got 0');
	});
});
