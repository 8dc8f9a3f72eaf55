/**
 * Writes the lists the documents show that the code already holds, between a block's two markers
 * (`<!-- <block>: … -->` and `<!-- /<block> -->`, inline or on lines of their own):
 * - `operations` (README.md, "Job Signals node"): each operation of the action node, its description and
 *   parameters, from the operation files (nodes/JobSignals/actions/operations.ts lists them);
 * - `output-operations` and `no-output-operations` (docs/action-node.md, "Output"): the operations that
 *   have Output and those that do not;
 * - `totals-operations` (docs/action-node.md, "Options"): the operations with Include Totals;
 * - `event-types` (README.md, docs/trigger.md): the webhook event types of contract/events.ts;
 * - `credential-fields` (README.md, "Credential: Job Signals API"): the credential's fields, from
 *   credentials/JobSignalsApi.credentials.ts.
 *
 * `node scripts/lists-doc.mts` rewrites the blocks; `--check` exits 1 when a document differs from the code
 * (npm run typecheck runs the check; both through doc-blocks.mts). It reads the built nodes and credential, so they must be built first (`npm run build`;
 * `npm run generate` does it), and the contract through the mock's public entry, as endpoints-doc.mts does.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { ICredentialType, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { WEBHOOK_EVENT_TYPES } from 'job-signals-mock-server/contract';
import { writeBlocks } from './doc-blocks.mts';

const ROOT = resolve(import.meta.dirname, '..');
const ACTIONS = resolve(ROOT, 'dist', 'nodes', 'JobSignals', 'actions');
const CREDENTIALS = resolve(ROOT, 'dist', 'credentials');

interface Operation {
	option: INodePropertyOptions;
	description: INodeProperties[];
}
const require = createRequire(import.meta.url);
const load = <T,>(file: string, folder = ACTIONS): T => {
	try {
		return require(resolve(folder, file)) as T;
	} catch (error) {
		throw new Error(`lists-doc: cannot load the built ${file} (run \`npm run build\` first): ${(error as Error).message}`);
	}
};
const { OPERATIONS } = load<{ OPERATIONS: Record<string, Record<string, Operation>> }>('operations.js');
const { resourceProperty } = load<{ resourceProperty: INodeProperties }>('resources.js');
const { JobSignalsApi } = load<{ JobSignalsApi: new () => ICredentialType }>('JobSignalsApi.credentials.js', CREDENTIALS);

/** Each operation as the node's editor orders them: resources as the Resource list, operations by name. */
const resources = (resourceProperty.options as INodePropertyOptions[]).filter(({ value }) => Object.hasOwn(OPERATIONS, String(value)));
const unlisted = Object.keys(OPERATIONS).filter((resource) => !resources.some(({ value }) => value === resource));
if (unlisted.length > 0) throw new Error(`lists-doc: resource ${unlisted.join(', ')} has operations but no entry in the Resource list (nodes/JobSignals/actions/resources.ts)`);
const operations = resources.flatMap((resource) =>
	Object.values(OPERATIONS[String(resource.value)])
		.sort((a, b) => a.option.name.localeCompare(b.option.name))
		.map((operation) => ({ ...operation, label: `${resource.name} → ${operation.option.name}` })),
);

/** Shown for version 3 only: version 2's Simplify and the Fields of Output's Selected Fields are Output's. */
const OUTPUT_ONLY = new Set(['simple', 'fields']);
const hasOutput = (operation: Operation) => operation.description.some(({ name }) => name === 'output');
const optionNames = (operation: Operation) =>
	operation.description.filter(({ type }) => type === 'collection').flatMap(({ options }) => (options as INodeProperties[]).map(({ name }) => name));
/** A parameter's name in the table: `Job Tag Names or IDs` (n8n's rule for a listed option) reads `Job Tags`. */
const shown = (name: string) => name.replace(/ Name or ID$/, '').replace(/ Names or IDs$/, 's').replace(/\|/g, '\\|');

function parametersOf(operation: Operation): string {
	const parts = operation.description
		.filter(({ type, name }) => type !== 'notice' && !OUTPUT_ONLY.has(name))
		.map((property) =>
			property.type === 'collection'
				? `${property.displayName} (${(property.options as INodeProperties[]).map(({ displayName }) => shown(displayName)).join(', ')})`
				: shown(property.displayName),
		);
	return parts.length > 0 ? parts.join(', ') : '—';
}

const list = (labels: string[]) => labels.join(', ');
/** A table cell: one line, `|` escaped, a URL as code (its `<host>` is no HTML tag). */
const cell = (text: string) =>
	text
		.replace(/\s+/g, ' ')
		.replace(/\|/g, '\\|')
		.replace(/https?:\/\/[^\s,]+/g, (url) => `\`${url}\``)
		.trim();
const defaultOf = ({ default: value, required }: INodeProperties) => (required ? 'required' : value === '' ? 'optional' : `optional, default ${String(value)}`);

const BLOCKS: Record<string, string> = {
	operations: [
		'',
		'| Resource → Operation | What it does | Parameters |',
		'|---|---|---|',
		...operations.map((operation) => `| ${operation.label} | ${operation.option.description ?? ''} | ${parametersOf(operation)} |`),
		'',
	].join('\n'),
	'output-operations': list(operations.filter(hasOutput).map(({ label }) => label)),
	'no-output-operations': list(operations.filter((operation) => !hasOutput(operation)).map(({ label }) => label)),
	'totals-operations': list(operations.filter((operation) => optionNames(operation).includes('includeTotals')).map(({ label }) => label)),
	'event-types': list(WEBHOOK_EVENT_TYPES.map((type) => `\`${type}\``)),
	'credential-fields': [
		'',
		'| Field | Needed | What to put |',
		'|---|---|---|',
		...new JobSignalsApi().properties.map((field) => `| ${field.displayName} | ${defaultOf(field)} | ${cell(field.description ?? '')} |`),
		'',
	].join('\n'),
};

/** The documents and the blocks each must hold. */
const DOCUMENTS: Record<string, string[]> = {
	'README.md': ['credential-fields', 'operations', 'event-types'],
	'docs/action-node.md': ['output-operations', 'no-output-operations', 'totals-operations'],
	'docs/trigger.md': ['event-types'],
};

writeBlocks(
	Object.fromEntries(Object.entries(DOCUMENTS).map(([document, blocks]) => [document, Object.fromEntries(blocks.map((block) => [block, BLOCKS[block]]))])),
	'a list is not what the code says',
);
