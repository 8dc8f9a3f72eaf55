/**
 * Writes nodes/JobSignals/actions/operations.ts: every `<resource>/<operation>.operation.ts`
 * file under nodes/JobSignals/actions/, by resource and operation, for the router and the
 * node's description (nodes/JobSignals/actions/resources.ts). A new operation is its file; this script
 * lists it. An operation file must export `option` (its entry in the Operation list, whose
 * value is the file's name), `description` and `execute`; the type check holds them.
 *
 * `node scripts/operations-index.mts` rewrites the file; `--check` exits 1 when the file
 * differs from the operation files there are (npm test runs the check).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ACTIONS = resolve(import.meta.dirname, '..', 'nodes', 'JobSignals', 'actions');
const OUT = join(ACTIONS, 'operations.ts');

const byResource = readdirSync(ACTIONS)
	.filter((name) => statSync(join(ACTIONS, name)).isDirectory())
	.sort()
	.map((resource) => ({
		resource,
		operations: readdirSync(join(ACTIONS, resource))
			.filter((file) => file.endsWith('.operation.ts'))
			.map((file) => file.slice(0, -'.operation.ts'.length))
			.sort(),
	}))
	.filter(({ operations }) => operations.length > 0);

const alias = (resource: string, operation: string) => `${resource}${operation[0].toUpperCase()}${operation.slice(1)}`;
const text = [
	'// Written by scripts/operations-index.mts from the *.operation.ts files beside it (npm run generate): do not edit.',
	"import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';",
	"import type { OperationRun } from '../helpers/items';",
	...byResource.flatMap(({ resource, operations }) => operations.map((op) => `import * as ${alias(resource, op)} from './${resource}/${op}.operation';`)),
	'',
	'export interface Operation {',
	'\toption: INodePropertyOptions;',
	'\tdescription: INodeProperties[];',
	'\texecute: OperationRun;',
	'}',
	'',
	'export const OPERATIONS = {',
	...byResource.map(({ resource, operations }) => `\t${resource}: { ${operations.map((op) => `${op}: ${alias(resource, op)}`).join(', ')} },`),
	'} satisfies Record<string, Record<string, Operation>>;',
	'',
].join('\n');

if (process.argv.includes('--check')) {
	const current = readFileSync(OUT, 'utf8');
	if (current !== text) {
		console.error('nodes/JobSignals/actions/operations.ts is not what the operation files say: run `npm run generate`.');
		process.exit(1);
	}
} else {
	writeFileSync(OUT, text);
}
