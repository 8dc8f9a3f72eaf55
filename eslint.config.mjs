// ESLint over every TypeScript file in the repository. The shipped package (nodes/,
// credentials/, package.json) is held to n8n's official community-node configuration;
// the rest (the contract, the mock, the harness, tests, benchmarks, scripts) to the same
// JavaScript, TypeScript and import rules, without the rules written for code that runs
// inside n8n (restricted imports and globals, NodeApiError, no console).
import { globalIgnores } from 'eslint/config';
import { config } from '@n8n/node-cli/eslint';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const nodeOnlyRules = Object.fromEntries(
	Object.keys(n8nCommunityNodesPlugin.configs.recommended.rules).map((rule) => [rule, 'off']),
);

// The harness and scripts that Node runs directly are .mts files: the same rules as .ts.
const alsoForMts = config.filter((entry) => entry.files?.includes('**/*.ts')).map((entry) => ({ ...entry, files: ['**/*.mts'] }));

export default [
	globalIgnores(['**/dist/**', '*.config.mjs']),
	...config,
	...alsoForMts,
	{
		files: ['{contract,mock-server,harness,test,bench,scripts}/**/*.{ts,mts}', '*.config.ts'],
		rules: { ...nodeOnlyRules, 'no-console': 'off' },
	},
	{
		files: ['**/*.ts', '**/*.mts'],
		// `_name`: a value taken out on purpose (rest destructuring that drops a field, an unused argument).
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
		},
	},
];
