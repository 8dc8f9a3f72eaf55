// The official n8n community-node lint configuration, applied to the n8n
// package (nodes, credentials, package.json). The mock server, tests and
// scripts are not n8n node code: they are type-checked, not held to node rules.
import { globalIgnores } from 'eslint/config';
import { config } from '@n8n/node-cli/eslint';

export default [globalIgnores(['mock-server/**', 'test/**', 'scripts/**', 'harness/**', 'bench/**', 'contract/**', '*.config.ts', '*.config.mjs']), ...config];
