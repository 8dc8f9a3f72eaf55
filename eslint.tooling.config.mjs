// ESLint for the code that runs in Node, not inside n8n: the mock, the harness, tests,
// benchmarks, scripts and tool configs: `.mts`, and the plain `.mjs` scripts (`npm run lint:tooling`, part of npm test).
// eslint.config.mjs is n8n's template, unchanged, as `n8n-node lint` requires in strict
// mode; it lints every `.ts` file: the nodes, the credential and the contract they ship
// with (docs/architecture.md, "Two lint configurations"). This one holds the `.mts` and `.mjs` files
// to the same JavaScript, TypeScript and import rules, without the rules written for code
// that runs inside n8n (restricted imports and globals, NodeApiError, no console).
import { globalIgnores } from 'eslint/config';
import { config } from '@n8n/node-cli/eslint';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const nodeOnlyRules = Object.fromEntries(
	Object.keys(n8nCommunityNodesPlugin.configs.recommended.rules).map((rule) => [rule, 'off']),
);

const forTooling = config
	.filter((entry) => entry.files?.includes('**/*.ts'))
	.map((entry) => ({ ...entry, files: ['**/*.mts', '**/*.mjs'] }));

export default [
	globalIgnores(['**/dist/**']),
	...forTooling,
	{
		files: ['**/*.mts', '**/*.mjs'],
		// Imports resolve as the tooling's own TypeScript projects resolve them (tsconfig.json is the build's, nodes only).
		settings: {
			'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.tooling.json', 'mock-server/tsconfig.test.json'], noWarnOnMultipleProjects: true })],
		},
		rules: {
			...nodeOnlyRules,
			'no-console': 'off',
			// `_name`: a value taken out on purpose (rest destructuring that drops a field, an unused argument).
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
		},
	},
];
