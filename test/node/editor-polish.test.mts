// What a user sees in the n8n editor and an AI agent reads: the nodes panel entry, the locator mode labels, the option
// lists' names and order, the user-facing wording, the search syntax in descriptions, and errors that say what to do.
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { SIGNAL_CATEGORIES } from '../../contract/hierarchy';
import { JOB_CATEGORIES } from '../../contract/job-categories';
import { domainCandidates, registeredDomain } from '../../nodes/shared/source-locator.ts';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { listSearch, loadOptions } from '../../harness/in-process/load-options.mts';
import { latestVersion, loadPackages } from '../../harness/in-process/packages.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { api, NODE_TYPE } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

const PACKAGE = 'n8n-nodes-job-signals';
const NODE_TYPES = [NODE_TYPE, `${PACKAGE}.jobSignalsTrigger`, `${PACKAGE}.jobSignalsPollTrigger`];

async function descriptionOf(type: string): Promise<INodeTypeDescription> {
	const packages = await loadPackages();
	return packages.nodeTypes.getByNameAndVersion(type, latestVersion(packages.node(type))).description;
}

type AnyProperty = INodeProperties | INodePropertyCollection | INodePropertyOptions;

/** Every property, option and mode below `properties`, with the path that leads to it. */
function* walk(
	properties: readonly AnyProperty[],
	path = '',
	kind: 'property' | 'option' | 'mode' = 'property',
): Generator<{ path: string; kind: 'property' | 'option' | 'mode'; item: AnyProperty & Record<string, unknown> }> {
	for (const property of properties) {
		const item = property as AnyProperty & Record<string, unknown>;
		const here = `${path}/${String(item.name ?? item.displayName)}`;
		yield { path: here, kind, item };
		if (Array.isArray(item.options)) yield* walk(item.options as AnyProperty[], here, item.type === 'collection' ? 'property' : 'option');
		if (Array.isArray(item.values)) yield* walk(item.values as AnyProperty[], here);
		if (Array.isArray(item.modes)) yield* walk(item.modes as AnyProperty[], here, 'mode');
	}
}

/** The texts of a property the editor shows. */
const shownTexts = (item: Record<string, unknown>) =>
	['displayName', 'description', 'hint', 'placeholder', 'action'].map((key) => item[key]).filter((text): text is string => typeof text === 'string');

const isSorted = (names: string[]) => names.every((name, i) => i === 0 || names[i - 1].localeCompare(name, 'en', { sensitivity: 'base' }) <= 0);

describe('the nodes panel', () => {
	it('shows the action node\'s own description on the app\'s entry, not the trigger\'s', async () => {
		// n8n 2.40's node creator (generateMergedNodesAndActions): a trigger named like an action node plus "Trigger"
		// is merged into that node's entry, and the entry takes the trigger's description.
		const nodes = await Promise.all(NODE_TYPES.map(async (type) => ({ type, description: await descriptionOf(type) })));
		const actions = nodes.filter((node) => !node.description.group.includes('trigger'));
		const entries = new Map(actions.map((node) => [node.type, node.description.description]));
		for (const trigger of nodes.filter((node) => node.description.group.includes('trigger'))) {
			const merged = trigger.type.replace('Trigger', '');
			if (entries.has(merged)) entries.set(merged, trigger.description.description);
		}
		const action = await descriptionOf(NODE_TYPE);
		expect(entries.get(NODE_TYPE)).toBe(action.description);
		expect(action.description).toMatch(/^Get intent signals, jobs, companies and collections/);
	});
});

describe('resource locators', () => {
	it('mode labels fit the editor\'s mode selector (no "By Doma")', async () => {
		const labels: string[] = [];
		for (const type of NODE_TYPES) {
			for (const { item } of walk((await descriptionOf(type)).properties)) {
				if (item.type === 'resourceLocator') labels.push(...(item.modes as { displayName: string }[]).map((mode) => mode.displayName));
			}
		}
		expect(labels).toContain('Domain');
		// n8n's own "From List" is the widest label its 92 px selector shows whole; "By Domain" was cut.
		for (const label of labels) expect(label === 'From List' || label.length <= 6, label).toBe(true);
	});
});

describe('option lists', () => {
	it('signal types have title-cased names beside their ids', async () => {
		const types = await loadOptions({
			type: NODE_TYPE,
			method: 'getSignalTypes',
			parameters: { resource: 'signal', operation: 'getAll', group: 'problems', category: 'finance' },
		});
		const finance = SIGNAL_CATEGORIES.find((c) => c.group === 'problems' && c.id === 'finance')!;
		expect(types.map((o) => o.value)).toEqual(['', ...finance.types]);
		expect(types).toContainEqual({ name: 'Cash Flow Constraints', value: 'cash-flow-constraints' });
		for (const option of types.slice(1)) {
			expect(option.name).not.toBe(option.value);
			expect(option.name).toMatch(/^([A-Z][A-Za-z&]*|IT|URL)( ([A-Z][A-Za-z&]*|IT|URL|and|of))*$/);
		}
	});

	it('Job Functions are sorted by name in the action node and the poll trigger, and hold every function', async () => {
		expect(isSorted([...JOB_CATEGORIES])).toBe(false);
		for (const type of [NODE_TYPE, `${PACKAGE}.jobSignalsPollTrigger`]) {
			const lists = [...walk((await descriptionOf(type)).properties)].filter(({ item }) => item.name === 'categories' && item.type === 'multiOptions');
			expect(lists.length, type).toBeGreaterThan(0);
			for (const { item } of lists) {
				const names = (item.options as INodePropertyOptions[]).map((o) => o.name);
				expect(isSorted(names), type).toBe(true);
				expect([...names].sort()).toEqual([...JOB_CATEGORIES].sort());
			}
		}
	});

	it('the collection picker lists the collections sorted by name', async () => {
		const { data } = (await api('/collections')) as { data: { collection_id: string; name: string }[] };
		const call = { type: NODE_TYPE, method: 'searchCollections', parameters: { resource: 'source', operation: 'getAllInCollection' }, credentials: { jobSignalsApi: mock.credentials } };
		const { results } = await listSearch(call);
		expect(isSorted(data.map((c) => c.name))).toBe(false);
		expect(isSorted(results.map((r) => r.name))).toBe(true);
		expect([...results].sort((a, b) => String(a.value).localeCompare(String(b.value)))).toEqual(
			data.map((c) => ({ name: c.name, value: c.collection_id })).sort((a, b) => a.value.localeCompare(b.value)),
		);
	});
});

describe('wording', () => {
	it('user-facing text speaks of the service, never of a mock', async () => {
		const packages = await loadPackages();
		const texts: string[] = [];
		for (const type of NODE_TYPES) {
			const description = await descriptionOf(type);
			texts.push(description.description, ...[...walk(description.properties)].flatMap(({ item }) => shownTexts(item)));
		}
		const credential = packages.credential('jobSignalsApi');
		texts.push(...[...walk(credential.properties)].flatMap(({ item }) => shownTexts(item)));
		expect(texts.length).toBeGreaterThan(100);
		for (const text of texts) expect(text).not.toMatch(/\bmock/i);
	});

	it('every parameter and option of the action node says what it does (what an AI agent acts on)', async () => {
		const missing: string[] = [];
		for (const { path, kind, item } of walk((await descriptionOf(NODE_TYPE)).properties)) {
			if (kind !== 'property' || item.type === 'notice' || item.name === 'operation' || item.name === 'resource') continue;
			if (typeof item.description !== 'string' || item.description.trim() === '') missing.push(path);
		}
		const operationsAndResources = [...walk((await descriptionOf(NODE_TYPE)).properties)].filter(
			({ path }) => /^\/(resource|operation)\/[^/]+$/.test(path),
		);
		for (const { path, item } of operationsAndResources) if (!item.description) missing.push(path);
		expect(operationsAndResources.length).toBeGreaterThan(10);
		expect(missing).toEqual([]);
	});

	it('the search syntax is in plain words in the Search and Locations descriptions, not only in a hint', async () => {
		const all = [...walk((await descriptionOf(NODE_TYPE)).properties)].map(({ item }) => item);
		const search = all.find((item) => item.name === 'search')!;
		const locations = all.find((item) => item.name === 'locations')!;
		expect(search.description).toMatch(/full text/);
		expect(search.description).toMatch(/Separate alternatives with commas/);
		expect(search.description).toMatch(/Join words with \+ when all of them must appear/);
		expect(search.description).toMatch(/Start an entry with - to leave out/);
		expect(search.description).toMatch(/\| also separates alternatives/);
		expect(locations.description).toMatch(/same rules as Search/);
		expect(locations.description).toMatch(/regions or countries/);
	});
});

describe('a careers or jobs subdomain finds the tracked company', () => {
	it('the registered domain of a host', () => {
		expect(registeredDomain('careers.acme.com')).toBe('acme.com');
		expect(registeredDomain('jobs.eu.acme.io')).toBe('acme.io');
		expect(registeredDomain('jobs.acme.co.uk')).toBe('acme.co.uk');
		expect(registeredDomain('acme.co.uk')).toBe('acme.co.uk');
		expect(registeredDomain('acme.com')).toBe('acme.com');
		expect(domainCandidates('careers.acme.com')).toEqual(['careers.acme.com', 'acme.com']);
		expect(domainCandidates('acme.com')).toEqual(['acme.com']);
	});

	it('Source → Get and Job → Get Many for Source with a pasted careers-page job link', async () => {
		const [tracked] = (await api('/collections')).data as { collection_id: string }[];
		const [source] = (await api(`/collections/${tracked.collection_id}/sources`)).data as { url_source: string; source_id: string }[];
		const link = `https://careers.${source.url_source}/jobs/12345?utm_source=n8n`;
		const run = (operation: string, resource: string) =>
			runNode({
				type: NODE_TYPE,
				parameters: { resource, operation, output: 'raw', returnAll: true, source: { __rl: true, mode: 'domain', value: link } },
				credentials: { jobSignalsApi: mock.credentials },
			});

		const before = mock.requests().length;
		const got = await run('get', 'source');
		expect(got.error).toBeUndefined();
		expect(got.items.map((i) => (i.json as { source_id: string }).source_id)).toEqual([source.source_id]);
		const paths = mock.requests().slice(before).map((r) => decodeURIComponent(new URL(r.url).pathname));
		expect(paths).toEqual([`/v2/sources/careers.${source.url_source}`, `/v2/sources/${source.url_source}`]);

		const jobs = await run('getAllForSource', 'job');
		expect(jobs.error).toBeUndefined();
		const expected = (await api(`/sources/${source.url_source}/jobs`)).data as { job_id: string }[];
		expect(jobs.items.slice(0, expected.length).map((i) => (i.json as { job_id: string }).job_id)).toEqual(expected.map((j) => j.job_id));
	});

	it('an untracked subdomain names both domains tried and says what to do next', async () => {
		const result = await runNode({
			type: NODE_TYPE,
			parameters: { resource: 'source', operation: 'get', source: { __rl: true, mode: 'domain', value: 'https://jobs.nobody.example/open' } },
			credentials: { jobSignalsApi: mock.credentials },
		});
		expect(result.error?.message).toBe('The service tracks no company with the domain jobs.nobody.example or nobody.example');
		expect(result.error?.description).toMatch(/add the company to one of your collections in the service's web application/);
		const byId = await runNode({
			type: NODE_TYPE,
			parameters: { resource: 'source', operation: 'get', source: { __rl: true, mode: 'id', value: 'src_nobody' } },
			credentials: { jobSignalsApi: mock.credentials },
		});
		expect(byId.error?.message).toBe('The service tracks no company with the source ID src_nobody');
		expect(byId.error?.description).toMatch(/switch Source to Domain/);
		const badId = await runNode({
			type: NODE_TYPE,
			parameters: { resource: 'source', operation: 'get', source: { __rl: true, mode: 'id', value: 'acme.com/x' } },
			credentials: { jobSignalsApi: mock.credentials },
		});
		expect(badId.error?.message).toBe('"acme.com/x" is not a source ID');
		expect(badId.error?.description).toMatch(/For a domain, switch Source to Domain\.$/);
	});
});
